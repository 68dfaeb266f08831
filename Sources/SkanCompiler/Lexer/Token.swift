package import SkanCore
package import SkanSchema

/// One lexical unit of a schema. Keywords are not token kinds: the language reserves them only where the
/// grammar expects them, so the parser compares identifier text instead (a case may be called `none`).
package struct Token: Hashable, Sendable {
    package enum Kind: Hashable, Sendable {
        case identifier
        /// Decimal digits only.
        case integer
        /// Digits with a fractional part, like `0.01`.
        case decimal
        /// A double-quoted string; `text` holds the decoded value.
        case string
        /// `...`
        case closedRange
        /// `..<`
        case halfOpenRange
        case leftBrace, rightBrace, leftParen, rightParen
        /// `+`, between the events of a source (`of purchase + ad_revenue`).
        case plus
        /// `.` before a member of an event (`purchase.count`).
        case dot
        /// `=`
        case equals
        /// `==`, `!=`, `<`, `<=`, `>`, `>=`
        case comparison(ComparisonOperator)
        case endOfFile
    }

    package var kind: Kind
    /// The token's text as written, except for strings, which hold their decoded value.
    package var text: String
    package var location: SourceLocation
    /// True when no other token stands before this one on its line; the parser recovers at such tokens.
    package var startsLine: Bool

    package init(kind: Kind, text: String, location: SourceLocation, startsLine: Bool) {
        self.kind = kind
        self.text = text
        self.location = location
        self.startsLine = startsLine
    }

    /// How the token reads in a message: `'five'`, `'{'`, `the end of the file`.
    package var quoted: String {
        switch kind {
        case .endOfFile: "the end of the file"
        case .string: "a string"
        default: "'\(text)'"
        }
    }
}
