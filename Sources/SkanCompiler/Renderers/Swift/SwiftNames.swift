/// Spelling schema names as Swift identifiers: keywords (and `Type`, `Protocol`, which name metatypes) are
/// wrapped in backticks, which Swift accepts in every place the generator uses them.
enum SwiftNames {
    static let keywords: Set<String> = [
        // Declarations
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate", "func",
        "import", "init", "inout", "internal", "let", "nonisolated", "open", "operator", "package", "private",
        "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias", "var",
        // Statements
        "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if",
        "in", "repeat", "return", "switch", "throw", "where", "while",
        // Expressions and types
        "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "Type",
        "Protocol",
    ]

    /// A name as a Swift identifier: `` `default` `` for keywords, unchanged otherwise.
    static func identifier(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// A name as an argument label at a call site, where Swift wants backticks only for `inout` (and
    /// warns about needless ones, even for `var` and `let`).
    static func argumentLabel(_ name: String) -> String {
        name == "inout" ? "`inout`" : name
    }
}
