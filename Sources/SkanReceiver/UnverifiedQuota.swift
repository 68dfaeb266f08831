/// How many stored postbacks may fail verification in an hour, per ad network and app and in all, before the
/// receiver verifies such postbacks before it stores them. Signatures are verified after storing, off the path
/// of every acknowledgement (about 40 µs each); a forger who sends postbacks of the right shape with made-up
/// signatures could otherwise fill the disk at the receiver's full speed. Past a quota, postbacks of that ad
/// network and app (or, past the total, all postbacks) are verified first: a genuine one is stored as always,
/// one that does not verify is answered 503 (a device would send it again later; one signed with a key skanc
/// does not yet know is thus delayed, never lost) and only counted, with its digest. Verified postbacks have no
/// quota.
package struct UnverifiedQuota {
    /// Who a postback says it is about: its ad network and app.
    struct Key: Hashable, Sendable {
        var adNetwork: String
        var app: String
    }

    package struct Settings: Sendable {
        /// Postbacks of one ad network and app that may fail verification in an hour.
        package var perKey = 1_000
        /// All postbacks that may fail verification in an hour.
        package var total = 100_000

        package init() {}
    }

    /// What the loop needs to know: whom to verify before storing.
    struct Gates: Sendable, Equatable {
        var keys: Set<Key> = []
        var all = false

        func applies(to key: Key) -> Bool { all || (!keys.isEmpty && keys.contains(key)) }

        /// Both gates: what either verifies first.
        func union(_ other: Gates) -> Gates { Gates(keys: keys.union(other.keys), all: all || other.all) }
    }

    let settings: Settings
    private var hour = 0
    private var failures: [Key: Int] = [:]
    private var total = 0
    private(set) var gates = Gates()
    /// Keys tracked at most in an hour; past it every postback is verified first (the quota cannot be dodged
    /// by making up ad networks).
    static let trackedKeys = 100_000

    init(_ settings: Settings) {
        self.settings = settings
    }

    /// Counts a stored postback that failed verification at `now` (Unix seconds); true when this made a new
    /// gate (to be said once).
    mutating func failed(_ key: Key, now: Int, weight: Int = 1) -> Bool {
        if now / 3_600 != hour {
            hour = now / 3_600
            failures = [:]
            total = 0
            gates = Gates()
        }
        total += weight
        let count = failures[key, default: 0] + weight
        if failures.count < Self.trackedKeys || failures[key] != nil { failures[key] = count }
        var changed = false
        if count > settings.perKey, !gates.keys.contains(key) {
            gates.keys.insert(key)
            changed = true
        }
        if !gates.all, total > settings.total || failures.count >= Self.trackedKeys {
            gates.all = true
            changed = true
        }
        return changed
    }
}
