/// Anything a command declares as an option: a plain `CommandOption`, or a typed one that wraps it.
package protocol OptionDeclaration: Sendable {
    /// The option as the parser and the help see it.
    var option: CommandOption { get }
}

extension CommandOption: OptionDeclaration {
    package var option: CommandOption { self }
}

/// An option whose value is one case of an enumeration: the accepted values and the default are the cases'
/// raw values, and the value is read back as a case (`arguments[format]` is a `PostbackFormat`), so no command
/// converts a string itself.
package struct ChoiceOption<Value: RawRepresentable & Sendable>: OptionDeclaration where Value.RawValue == String {
    /// The option as the parser and the help see it.
    package let option: CommandOption
    /// What the command uses when the option is not given.
    package let defaultCase: Value?

    /// `cases`: the values taken, in the order help lists them; `refusing`: values people ask for that are not
    /// taken, with why.
    package init(
        _ names: String..., placeholder: String, cases: [Value], default defaultCase: Value? = nil,
        refusing refused: [String: String] = [:], help: String
    ) {
        option = CommandOption(
            names: names, value: .choice(placeholder: placeholder, values: cases.map(\.rawValue)),
            defaultValue: defaultCase?.rawValue, isRepeatable: false, help: help, refusedValues: refused)
        self.defaultCase = defaultCase
    }
}

extension ChoiceOption where Value: CaseIterable {
    /// A choice of every case, in declaration order.
    package init(
        _ names: String..., placeholder: String, default defaultCase: Value? = nil,
        refusing refused: [String: String] = [:], help: String
    ) {
        option = CommandOption(
            names: names, value: .choice(placeholder: placeholder, values: Value.allCases.map(\.rawValue)),
            defaultValue: defaultCase?.rawValue, isRepeatable: false, help: help, refusedValues: refused)
        self.defaultCase = defaultCase
    }
}

/// An option whose value is a whole number in a range, checked when the command line is read, with one wording
/// for every command (`--threads takes a whole number from 1 to 64, not 'x'`).
package struct IntegerOption: OptionDeclaration {
    /// The option as the parser and the help see it.
    package let option: CommandOption
    /// The numbers it takes.
    package let range: ClosedRange<Int>

    package init(
        _ names: String..., placeholder: String, range: ClosedRange<Int>, default defaultValue: Int? = nil,
        help: String
    ) {
        precondition(defaultValue.map(range.contains) ?? true, "the default of \(names) is outside its range")
        self.option = CommandOption(
            names: names, value: .integer(placeholder: placeholder, range: range),
            defaultValue: defaultValue.map(String.init), isRepeatable: false, help: help)
        self.range = range
    }
}

extension ParsedArguments {
    /// The case given, or the default.
    package subscript<Value>(_ choice: ChoiceOption<Value>) -> Value? {
        self[choice.option].flatMap(Value.init(rawValue:))
    }

    /// The case given, or the default (which a choice read this way declares).
    package func value<Value>(_ choice: ChoiceOption<Value>) -> Value {
        guard let value = self[choice] ?? choice.defaultCase else {
            preconditionFailure("\(choice.option.name) has no default; read it as optional")
        }
        return value
    }

    /// The number given (checked against the option's range when read), or the default.
    package subscript(_ integer: IntegerOption) -> Int? {
        self[integer.option].flatMap { Int($0) }
    }

    /// Whether the option was given.
    package func has<Value>(_ choice: ChoiceOption<Value>) -> Bool { has(choice.option) }
    /// Whether the option was given.
    package func has(_ integer: IntegerOption) -> Bool { has(integer.option) }
}
