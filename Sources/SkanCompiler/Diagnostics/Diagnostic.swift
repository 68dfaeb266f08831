/// One finding about a schema: where, how bad, what, and a stable code that scripts and docs can rely on.
public struct Diagnostic: Hashable, Sendable {
    public enum Severity: String, Sendable, Comparable {
        case error, warning, note

        private var rank: Int {
            switch self {
            case .error: 2
            case .warning: 1
            case .note: 0
            }
        }

        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    /// A secondary location that explains the diagnostic (the earlier declaration of an overlap, say).
    public struct Note: Hashable, Sendable {
        public var location: SourceLocation?
        public var message: String

        public init(_ message: String, at location: SourceLocation? = nil) {
            self.message = message
            self.location = location
        }
    }

    public var severity: Severity
    public var code: DiagnosticCode
    public var message: String
    public var location: SourceLocation
    public var notes: [Note]

    public init(
        _ severity: Severity, _ code: DiagnosticCode, _ message: String,
        at location: SourceLocation, notes: [Note] = []
    ) {
        self.severity = severity
        self.code = code
        self.message = message
        self.location = location
        self.notes = notes
    }

    public static func error(
        _ code: DiagnosticCode, _ message: String, at location: SourceLocation, notes: [Note] = []
    ) -> Diagnostic {
        Diagnostic(.error, code, message, at: location, notes: notes)
    }

    public static func warning(
        _ code: DiagnosticCode, _ message: String, at location: SourceLocation, notes: [Note] = []
    ) -> Diagnostic {
        Diagnostic(.warning, code, message, at: location, notes: notes)
    }
}

extension Array where Element == Diagnostic {
    public var hasErrors: Bool { contains { $0.severity == .error } }

    /// Diagnostics in source order; ties keep the order in which they were found.
    public func sortedByLocation() -> [Diagnostic] {
        enumerated().sorted { a, b in
            a.element.location == b.element.location ? a.offset < b.offset : a.element.location < b.element.location
        }.map(\.element)
    }
}
