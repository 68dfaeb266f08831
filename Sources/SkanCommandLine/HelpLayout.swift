/// The layout of help text: words filled to a width, and the two-column list of options.
package enum HelpLayout {
    /// Help text fits this many columns.
    package static let width = 110
    /// Labels up to this long share their line with the help; longer ones stand on a line of their own.
    static let labelColumnLimit = 28

    /// `items` filled into lines of at most `width` columns: the first line after `firstPrefix`, the rest after
    /// `indent`. An item is never split.
    package static func fill(_ items: [String], firstPrefix: String, indent: String) -> String {
        var lines: [String] = []
        var line = firstPrefix
        var lineHasItem = false
        for item in items {
            if lineHasItem, line.count + 1 + item.count > width {
                lines.append(line)
                line = indent
                lineHasItem = false
            }
            line += (lineHasItem ? " " : "") + item
            lineHasItem = true
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    /// Each option's label in one column and its help, filled, in the next; the default, when there is one, at
    /// the end of its help.
    static func optionList(_ options: [CommandOption]) -> String {
        let fitting = options.map(\.label.count).filter { $0 <= labelColumnLimit }
        let column = 2 + (fitting.max() ?? 0) + 2
        let indent = String(repeating: " ", count: column)
        return options.map { option in
            var help = option.help
            if let value = option.defaultValue { help += " (default: \(value))" }
            let paragraphs = help.split(separator: "\n", omittingEmptySubsequences: false)
            let label = "  " + option.label
            let first: String
            var text = ""
            if label.count + 2 <= column {
                first = label + String(repeating: " ", count: column - label.count)
            } else {
                text = label + "\n"
                first = indent
            }
            text += paragraphs.enumerated().map { index, paragraph in
                fill(
                    paragraph.split(separator: " ").map(String.init), firstPrefix: index == 0 ? first : indent,
                    indent: indent)
            }.joined(separator: "\n")
            return text
        }.joined(separator: "\n")
    }
}
