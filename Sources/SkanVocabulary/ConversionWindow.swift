/// The conversion windows of SKAdNetwork 4 and AdAttributionKit, measured in hours from first launch:
/// window 1 is [0 h, 48 h), window 2 [48 h, 168 h), window 3 [168 h, 840 h); after 840 hours (35 days) there
/// is none. Apple: "The first conversion window ends two days after the user first launches the app … the
/// second conversion window ends seven days after … the third conversion window ends after 35 days" (StoreKit,
/// Receiving postbacks in multiple conversion windows). Pages that say "days 0-2, 3-7, 8-35" describe the same
/// instants; counting whole calendar days from them ends each window a day late.
///
/// A type rather than an `Int`, so that no window 0 or 4 can reach a schema, a decoder or the runtime.
public enum ConversionWindow: Int, CaseIterable, Comparable, Hashable, Sendable, Codable, CustomStringConvertible {
    case first = 1
    case second = 2
    case third = 3

    /// The window numbered `number` (1, 2 or 3), as schemas and Apple's pages number them; nil for any other.
    public init?(number: Int) {
        self.init(rawValue: number)
    }

    /// The window of a postback's `postback-sequence-index` (0, 1 or 2); nil for any other.
    public init?(postbackSequenceIndex: Int) {
        self.init(rawValue: postbackSequenceIndex + 1)
    }

    /// 1, 2 or 3.
    public var number: Int { rawValue }

    /// 0, 1 or 2: the `postback-sequence-index` of this window's postback.
    public var postbackSequenceIndex: Int { rawValue - 1 }

    /// The hours after first launch the window covers.
    public var hours: Range<Int> {
        switch self {
        case .first: 0..<48
        case .second: 48..<168
        case .third: 168..<840
        }
    }

    /// In time order.
    public static func < (lhs: ConversionWindow, rhs: ConversionWindow) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The number, so that "window \(window)" reads as the schemas write it.
    public var description: String { String(rawValue) }
}

/// One value for each conversion window: total, so no window can be missing and none can be out of range.
public struct PerWindow<Value> {
    /// The values of windows 1, 2 and 3.
    public private(set) var values: [Value]

    /// Each window's value, made by `value`.
    public init(_ value: (ConversionWindow) throws -> Value) rethrows {
        values = try ConversionWindow.allCases.map(value)
    }

    /// The same value in every window.
    public init(repeating value: Value) {
        values = Array(repeating: value, count: ConversionWindow.allCases.count)
    }

    /// The value of `window`.
    public subscript(window: ConversionWindow) -> Value {
        get { values[window.postbackSequenceIndex] }
        set { values[window.postbackSequenceIndex] = newValue }
    }

    /// Each window's value transformed.
    public func map<T>(_ transform: (Value) throws -> T) rethrows -> PerWindow<T> {
        try PerWindow<T> { try transform(self[$0]) }
    }
}

extension PerWindow: Sendable where Value: Sendable {}
extension PerWindow: Equatable where Value: Equatable {}
extension PerWindow: Hashable where Value: Hashable {}
