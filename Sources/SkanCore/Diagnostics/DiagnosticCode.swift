/// The stable code printed in brackets after each message (`[overlap]`). Never rename one: scripts and docs
/// match on them. A struct rather than an enum so that each module declares its own codes next to its checks
/// (the compiler's in `SchemaDiagnosticCodes.swift`, the Info.plist checker's in `InfoPlistCodes.swift`) and
/// one printer prints them all.
public struct DiagnosticCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The code as printed: lowercase words joined by hyphens.
    public let rawValue: String

    /// The code `rawValue`.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The code `rawValue`; for the static constants each module declares.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// The code as printed.
    public var description: String { rawValue }
}
