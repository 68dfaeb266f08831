/// One option of a command, declared once: the parser, the usage line, `--help` and the bad-usage errors all
/// derive from it, so what a command accepts and what its help lists cannot drift apart.
package struct CommandOption: Sendable, Hashable {
    /// What follows the option's name on the command line.
    package enum Value: Sendable, Hashable {
        /// Nothing: a flag, like `--warnings-as-errors`.
        case none
        /// Any text, shown as the placeholder (`FILE`).
        case text(placeholder: String)
        /// One of a fixed list (`--format csv`), shown as the placeholder in the options list and as the list
        /// itself in the usage line.
        case choice(placeholder: String, values: [String])
        /// A whole number in a range (`IntegerOption`), shown as the placeholder.
        case integer(placeholder: String, range: ClosedRange<Int>)
    }

    /// Every spelling, the short one first (`-o`, `--output`); the last one names the option in messages.
    package var names: [String]
    package var value: Value
    /// What the command uses when the option is not given; `--help` shows it.
    package var defaultValue: String?
    /// Whether the option may be given more than once (each value kept, in order); otherwise twice is bad usage.
    package var isRepeatable: Bool
    /// One paragraph for `--help`, wrapped to the terminal width there (a line break starts a new line).
    package var help: String
    /// Values of a choice people ask for that the command does not take, each with why and what to use instead:
    /// the error says so rather than listing the accepted values alone.
    package var refusedValues: [String: String] = [:]

    /// The name messages use: the long spelling.
    package var name: String { names[names.count - 1] }

    package var takesValue: Bool { value != .none }

    /// A flag: present or absent.
    package static func flag(_ names: String..., help: String) -> CommandOption {
        CommandOption(names: names, value: .none, defaultValue: nil, isRepeatable: false, help: help)
    }

    /// An option that takes any text.
    package static func text(
        _ names: String..., placeholder: String, defaultValue: String? = nil, repeatable: Bool = false, help: String
    ) -> CommandOption {
        CommandOption(
            names: names, value: .text(placeholder: placeholder), defaultValue: defaultValue,
            isRepeatable: repeatable, help: help)
    }

    /// An option that takes one of `values`; `refusing` names values it does not take, with the reason.
    package static func choice(
        _ names: String..., placeholder: String, values: [String], defaultValue: String? = nil,
        refusing refused: [String: String] = [:], help: String
    ) -> CommandOption {
        CommandOption(
            names: names, value: .choice(placeholder: placeholder, values: values), defaultValue: defaultValue,
            isRepeatable: false, help: help, refusedValues: refused)
    }

    /// `-h, --help`, which every command takes.
    package static let help = CommandOption.flag("-h", "--help", help: "Show this help.")

    /// The values a choice accepts; empty for any text and for flags.
    var acceptedValues: [String] {
        if case .choice(_, let values) = value { return values }
        return []
    }

    /// `-o, --output FILE`: the left column of the options list.
    var label: String {
        let spelled = names.joined(separator: ", ")
        switch value {
        case .none: return spelled
        case .text(let placeholder), .choice(let placeholder, _), .integer(let placeholder, _):
            return spelled + " " + placeholder
        }
    }

    /// `[-o FILE]`, `[--format csv|json]`, `[--check]`: the option in the usage line.
    var synopsis: String {
        let spelled = names[0]
        switch value {
        case .none: return "[\(spelled)]"
        case .text(let placeholder), .integer(let placeholder, _): return "[\(spelled) \(placeholder)]"
        case .choice(_, let values): return "[\(spelled) \(values.joined(separator: "|"))]"
        }
    }
}
