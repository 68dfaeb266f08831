/// What a command line says, read by the options a command declares: `arguments[output]` rather than a
/// string key that can be misspelled, and one answer for every spelling of an option.
package struct ParsedArguments: Sendable {
    /// The values given, by option name (the long spelling); a flag has one empty value.
    var given: [String: [String]] = [:]
    /// The operands, in order.
    package var positionals: [String] = []

    /// The command these are the arguments of, as its messages name it (`report`).
    package let command: String

    package init(command: String, positionals: [String] = []) {
        self.command = command
        self.positionals = positionals
    }

    /// Whether the option was given (by any of its spellings).
    package func has(_ option: CommandOption) -> Bool {
        given[option.name] != nil
    }

    /// The option's value, or its default when it was not given.
    package subscript(_ option: CommandOption) -> String? {
        given[option.name]?.last ?? option.defaultValue
    }

    /// Every value of a repeatable option, in the order given.
    package func values(_ option: CommandOption) -> [String] {
        given[option.name] ?? []
    }

    mutating func record(_ option: CommandOption, value: String) {
        given[option.name, default: []].append(value)
    }
}
