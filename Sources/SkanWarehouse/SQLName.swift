/// The rule for the names a user gives the SQL skanc writes (the table of raw lines, its columns, the views).
/// A name is quoted wherever it stands in a statement, but it also appears in the files' header comments and in
/// engines' error messages, where a line break would end the comment and let the rest run as SQL. So a name is
/// refused, never escaped, when it is empty, has an empty part, or holds a control character or a line or
/// paragraph separator.
public enum SQLName {
    /// What is wrong with `name`, said so that the user knows what to type instead; nil when it can be used.
    /// `qualified` names (`schema.table`) are checked part by part.
    public static func problem(with name: String, qualified: Bool) -> String? {
        if name.isEmpty { return "is empty: give a name" }
        if let scalar = name.unicodeScalars.first(where: isRefused) {
            let code = String(scalar.value, radix: 16, uppercase: true)
            return "holds the control character U+\(String(repeating: "0", count: max(0, 4 - code.count)) + code): "
                + "use letters, digits and underscores"
        }
        if qualified, name.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty) {
            return "has an empty part around a dot: write schema.table"
        }
        return nil
    }

    private static func isRefused(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }
}
