import Foundation

/// What the updater persists between launches.
public struct StoredConversionState: Sendable, Equatable, Codable {
    /// When the app first ran; the conversion windows count from here.
    public var firstLaunch: Date
    /// The state, as its fine value (a state and its fine value determine each other).
    public var fineValue: Int
    /// The last update applied in each window (keys 1, 2, 3).
    public var applied: [Int: PostbackUpdate]
    /// The highest fine value ever sent, for the SKAdNetwork 3 increase-only option.
    public var highestFineValueSent: Int?

    public init(firstLaunch: Date, fineValue: Int, applied: [Int: PostbackUpdate] = [:], highestFineValueSent: Int? = nil) {
        self.firstLaunch = firstLaunch
        self.fineValue = fineValue
        self.applied = applied
        self.highestFineValueSent = highestFineValueSent
    }
}

/// Loads and saves the updater's state.
public protocol ConversionValueStore: Sendable {
    func load() -> StoredConversionState?
    func save(_ state: StoredConversionState)
}

/// Keeps the state in memory: for tests, and the default where UserDefaults is not the right place.
public final class InMemoryConversionValueStore: ConversionValueStore, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: StoredConversionState?

    public init(_ initial: StoredConversionState? = nil) {
        stored = initial
    }

    public func load() -> StoredConversionState? {
        lock.withLock { stored }
    }

    public func save(_ state: StoredConversionState) {
        lock.withLock { stored = state }
    }
}

/// Keeps the state in UserDefaults under one key, as JSON.
public final class UserDefaultsConversionValueStore: ConversionValueStore, @unchecked Sendable {
    private let defaults: UserDefaults
    private let key: String

    /// `key` should name the schema and its version, e.g. `skanc.Shop.v3`.
    public init(key: String, defaults: UserDefaults = .standard) {
        self.key = key
        self.defaults = defaults
    }

    public func load() -> StoredConversionState? {
        guard let data = defaults.data(forKey: key) else { return nil }
        return try? JSONDecoder().decode(StoredConversionState.self, from: data)
    }

    public func save(_ state: StoredConversionState) {
        guard let data = try? JSONEncoder().encode(state) else { return }
        defaults.set(data, forKey: key)
    }
}
