import SkanCrypto
import SkanPostbacks

/// Verifies postbacks before they are stored, on a thread of its own, for the ad networks and apps past their
/// quota of failed signatures (`UnverifiedQuota`): what verifies goes on to be stored, what does not is counted
/// with its digest and never written.
///
/// It also verifies a sample of what is stored (one postback in `sampleEvery`, after it was acknowledged as
/// always), each failure weighing `sampleEvery`: the counter, which verifies everything, lags during a burst
/// and would let a flood of forgeries be stored for as long; the sample passes the quota within moments.
final class VerifyGate: @unchecked Sendable {
    /// What a postback handed over came to.
    struct Outcome {
        var ticket: Int
        var verifies: Bool
    }

    /// Postbacks waiting at most; past it the loop answers 503 at once (the device sends it again later).
    static let capacity = 4_096
    /// One postback in this many is verified as a sample; samples past `capacity` waiting are dropped.
    static let sampleEvery = 256
    private var samples: [(key: UnverifiedQuota.Key, body: [UInt8])] = []
    /// The quota the samples count against; nil without one (the gate then verifies development claims only).
    private var sampled: UnverifiedQuota?
    private let allowsDevelopment: Bool

    private let lock = ConditionLock()
    private let wake: WakePipe
    private var waiting: [(ticket: Int, body: [UInt8], development: Bool)] = []
    private var done: [Outcome] = []
    private var stopping = false
    /// Postbacks that did not verify, and the SHA-256 of the latest (hex): what is kept of them.
    private(set) var refused = 0
    private(set) var lastDigest = ""

    init(verification: PostbackVerification, quota: UnverifiedQuota.Settings?, wake: WakePipe) {
        self.wake = wake
        sampled = quota.map(UnverifiedQuota.init)
        allowsDevelopment = verification.allowDevelopment
        OwnThread.start { [self] in run(PostbackShapeCheck(verification: verification), verification) }
    }

    /// Hands a postback over, one that claims a development key when `development` (it verifies only when signed
    /// with one); false when the gate is full.
    func submit(_ ticket: Int, _ body: [UInt8], development: Bool = false) -> Bool {
        lock.holding {
            guard waiting.count < Self.capacity else { return false }
            waiting.append((ticket, body, development))
            lock.wakeAll()
            return true
        }
    }

    /// Verifies a stored postback as a sample, when there is room.
    func sample(_ key: UnverifiedQuota.Key, _ body: [UInt8]) {
        lock.holding {
            guard sampled != nil, samples.count < Self.capacity else { return }
            samples.append((key, body))
            lock.wakeAll()
        }
    }

    /// The gates the samples set.
    var gates: UnverifiedQuota.Gates { lock.holding { sampled?.gates ?? UnverifiedQuota.Gates() } }

    /// The postbacks verified since the last call.
    func finished() -> [Outcome] {
        lock.holding {
            defer { done = [] }
            return done
        }
    }

    /// What was refused so far: the count and the digest of the latest.
    var refusals: (count: Int, lastDigest: String) { lock.holding { (refused, lastDigest) } }

    static func verifies(_ sender: PostbackSender, _ allowsDevelopment: Bool) -> Bool {
        sender.signature == .verified || (sender.signature == .development && allowsDevelopment)
    }

    func stop() {
        lock.holding {
            stopping = true
            lock.wakeAll()
        }
    }

    private func run(_ initial: PostbackShapeCheck, _ verification: PostbackVerification) {
        var check = initial
        while true {
            let work:
                (
                    taken: [(ticket: Int, body: [UInt8], development: Bool)],
                    samples: [(key: UnverifiedQuota.Key, body: [UInt8])]
                )? =
                    lock.holding {
                        while waiting.isEmpty, samples.isEmpty, !stopping { lock.wait() }
                        guard !stopping else { return nil }
                        defer {
                            waiting = []
                            samples = []
                        }
                        return (waiting, samples)
                    }
            guard let (taken, samples) = work else { return }
            for (key, body) in samples {
                guard case .postback(let sender) = check.check(body), !Self.verifies(sender, allowsDevelopment)
                else { continue }
                let changed = lock.holding {
                    sampled?.failed(key, now: Clock.epochSeconds(), weight: Self.sampleEvery) ?? false
                }
                if changed { wake.wake() }
            }
            var outcomes: [Outcome] = []
            for (ticket, body, development) in taken {
                var verifies = false
                if case .postback(let sender) = check.check(body) {
                    verifies =
                        development ? sender.signature == .development : Self.verifies(sender, allowsDevelopment)
                }
                outcomes.append(Outcome(ticket: ticket, verifies: verifies))
                if !verifies {
                    let digest = SHA256.hash(body).map {
                        String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16)
                    }.joined()
                    lock.holding {
                        refused += 1
                        lastDigest = digest
                    }
                }
            }
            lock.holding { done += outcomes }
            wake.wake()
        }
    }
}
