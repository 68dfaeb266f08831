/// What the runtime needs from a generated schema type. Every type `skanc generate` writes has these
/// members, so an app conforms it with one empty extension: `extension Shop: ConversionValueState {}`.
/// (Generated code does not import this library; the conformance lives in the app.)
public protocol ConversionValueState: Sendable, Equatable {
    associatedtype Coarse: RawRepresentable where Coarse.RawValue == String

    /// The state before anything happened.
    init()
    /// The state a fine value encodes; throws for values that are no state of the schema.
    init(fineValue: Int) throws
    /// The fine conversion value, 0...63.
    var fineValue: Int { get }
    /// The generated `Window` type: raw values 1, 2 and 3.
    associatedtype Window: RawRepresentable where Window.RawValue == Int
    /// The coarse value in a conversion window; its raw value is `low`, `medium` or `high`.
    func coarseValue(in window: Window) -> Coarse
    /// Whether to lock a conversion window in this state.
    func shouldLock(in window: Window) -> Bool
}
