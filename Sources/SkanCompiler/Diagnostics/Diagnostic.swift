/// One finding about a schema: where, how bad, what, and a stable code that scripts and docs can rely on.
public struct Diagnostic: Hashable, Sendable {
    /// How bad a diagnostic is: an error stops compilation, a warning does not; a note only explains.
    public enum Severity: String, Sendable, Comparable {
        case error, warning, note

        private var rank: Int {
            switch self {
            case .error: 2
            case .warning: 1
            case .note: 0
            }
        }

        /// Notes order before warnings, warnings before errors.
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    /// A secondary location that explains the diagnostic (the earlier declaration of an overlap, say).
    public struct Note: Hashable, Sendable {
        /// Where the note points, if anywhere.
        public var location: SourceLocation?
        /// What the note says.
        public var message: String

        /// A note saying `message`, pointing at `location` when given.
        public init(_ message: String, at location: SourceLocation? = nil) {
            self.message = message
            self.location = location
        }
    }

    /// Error, warning or note.
    public var severity: Severity
    /// The stable code, printed in brackets (`[overlap]`) and documented in docs/LanguageReference.md.
    public var code: DiagnosticCode
    /// What is wrong and what to do, in one sentence.
    public var message: String
    /// Where the problem is.
    public var location: SourceLocation
    /// Further locations and hints, printed after the message.
    public var notes: [Note]

    /// A diagnostic with every part given.
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

    package static func error(
        _ code: DiagnosticCode, _ message: String, at location: SourceLocation, notes: [Note] = []
    ) -> Diagnostic {
        Diagnostic(.error, code, message, at: location, notes: notes)
    }

    package static func warning(
        _ code: DiagnosticCode, _ message: String, at location: SourceLocation, notes: [Note] = []
    ) -> Diagnostic {
        Diagnostic(.warning, code, message, at: location, notes: notes)
    }
}

extension Array where Element == Diagnostic {
    /// Whether any of the diagnostics is an error.
    public var hasErrors: Bool { contains { $0.severity == .error } }

    /// Diagnostics in source order; ties keep the order in which they were found.
    public func sortedByLocation() -> [Diagnostic] {
        enumerated().sorted { a, b in
            a.element.location == b.element.location ? a.offset < b.offset : a.element.location < b.element.location
        }.map(\.element)
    }
}
