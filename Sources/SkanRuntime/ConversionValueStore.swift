public import Foundation

/// What the updater persists between launches for one schema version and one conversion. The first-launch date
/// is kept apart (`ConversionValueStore.loadFirstLaunch`), so that a new schema version keeps the user's windows.
public struct StoredConversionState: Sendable, Equatable, Codable {
    /// The state, as its fine value (a state and its fine value determine each other).
    public var fineValue: Int
    /// The last update SKAdNetwork accepted in each window (keys 1, 2, 3).
    public var skAdNetwork: [Int: ConversionValueUpdate]
    /// The last update AdAttributionKit accepted in each window (keys 1, 2, 3).
    public var adAttributionKit: [Int: ConversionValueUpdate]
    /// The highest fine value ever sent, for the SKAdNetwork 3 increase-only option.
    public var highestFineValueSent: Int?
    /// For a re-engagement, when the app was opened from the ad: a state stored for another open is a
    /// re-engagement of its own and is not carried over.
    public var opened: Date?
    /// When the first update was taken: the start of Developer Mode's windows.
    public var firstUpdate: Date?
    /// The frameworks that refused this conversion for good (`PostbackRefusal.conversion`).
    public var refusedConversion: [AttributionFramework]?
    /// A schema with events: what was logged, as the generated `Activity` encodes it.
    public var activity: Data?

    /// A stored state; the frameworks' maps default to empty.
    public init(
        fineValue: Int, skAdNetwork: [Int: ConversionValueUpdate] = [:],
        adAttributionKit: [Int: ConversionValueUpdate] = [:], highestFineValueSent: Int? = nil, opened: Date? = nil,
        firstUpdate: Date? = nil, refusedConversion: [AttributionFramework]? = nil
    ) {
        self.fineValue = fineValue
        self.skAdNetwork = skAdNetwork
        self.adAttributionKit = adAttributionKit
        self.highestFineValueSent = highestFineValueSent
        self.opened = opened
        self.firstUpdate = firstUpdate
        self.refusedConversion = refusedConversion
    }

    /// The last updates `framework` accepted, by window.
    public subscript(framework: AttributionFramework) -> [Int: ConversionValueUpdate] {
        get {
            switch framework {
            case .skAdNetwork: skAdNetwork
            case .adAttributionKit: adAttributionKit
            }
        }
        set {
            switch framework {
            case .skAdNetwork: skAdNetwork = newValue
            case .adAttributionKit: adAttributionKit = newValue
            }
        }
    }
}

/// Loads and saves the updater's state and, separately, the first-launch date.
public protocol ConversionValueStore: Sendable {
    /// When the app first ran; the conversion windows count from here, whatever the schema version.
    func loadFirstLaunch() -> Date?
    func saveFirstLaunch(_ date: Date)
    func load() -> StoredConversionState?
    func save(_ state: StoredConversionState)
}

/// Keeps the state in memory: for tests, and the default where UserDefaults is not the right place.
public final class InMemoryConversionValueStore: ConversionValueStore, @unchecked Sendable {
    private let lock = NSLock()
    private var firstLaunch: Date?
    private var stored: StoredConversionState?

    /// A store holding `firstLaunch` and `initial`, if given.
    public init(firstLaunch: Date? = nil, _ initial: StoredConversionState? = nil) {
        self.firstLaunch = firstLaunch
        stored = initial
    }

    /// The stored first-launch date, if any.
    public func loadFirstLaunch() -> Date? { lock.withLock { firstLaunch } }
    /// Stores the first-launch date.
    public func saveFirstLaunch(_ date: Date) { lock.withLock { firstLaunch = date } }
    /// The stored state, if any.
    public func load() -> StoredConversionState? { lock.withLock { stored } }
    /// Stores `state`.
    public func save(_ state: StoredConversionState) { lock.withLock { stored = state } }
}

/// Keeps the state in UserDefaults as JSON under a key per schema version (`skanc.Shop.v3`), and the
/// first-launch date under one key for every version (`skanc.firstLaunch`), so that an app update with a
/// new schema version starts a fresh state inside the same windows.
public final class UserDefaultsConversionValueStore: ConversionValueStore, @unchecked Sendable {
    private let defaults: UserDefaults
    private let key: String
    private let firstLaunchKey: String
    private let earlierKeys: [String]

    /// - Parameters:
    ///   - key: names the schema and its version, e.g. `skanc.Shop.v3`.
    ///   - firstLaunchKey: where the first-launch date lives; the same for every schema version.
    ///   - earlierKeys: keys that earlier releases stored whole states under, the first-launch date
    ///     inside; the date is taken from the first that has one when `firstLaunchKey` has none.
    public init(
        key: String, firstLaunchKey: String = "skanc.firstLaunch", earlierKeys: [String] = [],
        defaults: UserDefaults = .standard
    ) {
        self.key = key
        self.firstLaunchKey = firstLaunchKey
        self.earlierKeys = earlierKeys
        self.defaults = defaults
    }

    /// The stored first-launch date, if any.
    public func loadFirstLaunch() -> Date? {
        if let seconds = defaults.object(forKey: firstLaunchKey) as? Double {
            return Date(timeIntervalSince1970: seconds)
        }
        // Earlier releases kept the date inside the versioned state.
        struct EarlierState: Decodable { var firstLaunch: Date }
        for earlier in [key] + earlierKeys {
            if let data = defaults.data(forKey: earlier),
                let state = try? JSONDecoder().decode(EarlierState.self, from: data)
            {
                return state.firstLaunch
            }
        }
        return nil
    }

    /// Stores the first-launch date.
    public func saveFirstLaunch(_ date: Date) {
        defaults.set(date.timeIntervalSince1970, forKey: firstLaunchKey)
    }

    /// The stored state, if any.
    public func load() -> StoredConversionState? {
        guard let data = defaults.data(forKey: key) else { return nil }
        return try? JSONDecoder().decode(StoredConversionState.self, from: data)
    }

    /// Stores `state`.
    public func save(_ state: StoredConversionState) {
        guard let data = try? JSONEncoder().encode(state) else { return }
        defaults.set(data, forKey: key)
    }
}
