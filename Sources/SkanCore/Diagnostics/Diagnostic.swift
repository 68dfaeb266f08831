/// One finding about an input (a schema, a property list, a file of postbacks): where, how bad, what, and a
/// stable code that scripts and docs can rely on. Every command prints its findings with one
/// `DiagnosticFormatter`.
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

    /// A change of the input's text that resolves the diagnostic ("did you mean 'paid'?"): `original`, written
    /// at `location`, becomes `replacement`. Editors offer it as a quick fix.
    public struct FixIt: Hashable, Sendable {
        /// Where the text to replace starts.
        public var location: SourceLocation
        /// The text written there now (its UTF-8 length is the length replaced).
        public var original: String
        /// The text to write instead.
        public var replacement: String

        /// A fix-it replacing `original` at `location` with `replacement`.
        public init(replacing original: String, at location: SourceLocation, with replacement: String) {
            self.location = location
            self.original = original
            self.replacement = replacement
        }
    }

    /// Error, warning or note.
    public var severity: Severity
    /// The stable code, printed in brackets (`[overlap]`).
    public var code: DiagnosticCode
    /// What is wrong and what to do, in one sentence.
    public var message: String
    /// Where the problem is in the input's text; nil for a problem of the whole input, or of an input without
    /// lines (a binary property list), where `subject` says what it is about.
    public var location: SourceLocation?
    /// What the diagnostic is about when no line can say it, such as a key path
    /// (`SKAdNetworkItems[2].SKAdNetworkIdentifier`) in a binary property list.
    public var subject: String?
    /// Further locations and hints, printed after the message.
    public var notes: [Note]
    /// Changes that resolve the diagnostic, for editors; the message says the same in words.
    public var fixIts: [FixIt]

    /// A diagnostic with every part given.
    public init(
        _ severity: Severity, _ code: DiagnosticCode, _ message: String,
        at location: SourceLocation?, subject: String? = nil, notes: [Note] = [], fixIts: [FixIt] = []
    ) {
        self.severity = severity
        self.code = code
        self.message = message
        self.location = location
        self.subject = subject
        self.notes = notes
        self.fixIts = fixIts
    }

    /// An error at `location`.
    public static func error(
        _ code: DiagnosticCode, _ message: String, at location: SourceLocation?, subject: String? = nil,
        notes: [Note] = [], fixIts: [FixIt] = []
    ) -> Diagnostic {
        Diagnostic(.error, code, message, at: location, subject: subject, notes: notes, fixIts: fixIts)
    }

    /// A warning at `location`.
    public static func warning(
        _ code: DiagnosticCode, _ message: String, at location: SourceLocation?, subject: String? = nil,
        notes: [Note] = [], fixIts: [FixIt] = []
    ) -> Diagnostic {
        Diagnostic(.warning, code, message, at: location, subject: subject, notes: notes, fixIts: fixIts)
    }
}

extension Array where Element == Diagnostic {
    /// Whether any of the diagnostics is an error.
    public var hasErrors: Bool { contains { $0.severity == .error } }

    /// Diagnostics in source order (those without a location last); ties keep the order in which they were found.
    public func sortedByLocation() -> [Diagnostic] {
        enumerated().sorted { a, b in
            switch (a.element.location, b.element.location) {
            case (let x?, let y?) where x != y: x < y
            case (nil, _?): false
            case (_?, nil): true
            default: a.offset < b.offset
            }
        }.map(\.element)
    }

    /// `2 errors, 1 warning`: the closing line of a list of findings.
    public var tally: String {
        let errors = filter { $0.severity == .error }.count
        let warnings = filter { $0.severity == .warning }.count
        return "\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
    }
}
