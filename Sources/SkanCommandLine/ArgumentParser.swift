/// Splits a command line by the options a command declares. `--name value` and `--name=value` both work, `--`
/// ends the options, and `-` (standard input) and negative numbers are operands.
enum ArgumentParser {
    static func parse(
        _ arguments: [String], options: [CommandOption], command: String
    ) throws(UsageError) -> ParsedArguments {
        var byName: [String: CommandOption] = [:]
        for option in options + [.help] {
            for name in option.names { byName[name] = option }
        }
        var parsed = ParsedArguments(command: command)
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            // `-` is standard input and `-1` a (negative) value, never options.
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") || Int(argument) != nil {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            let spelled = String(argument.prefix { $0 != "=" })
            let inlineValue = argument.contains("=") ? String(argument.drop { $0 != "=" }.dropFirst()) : nil
            guard let option = byName[spelled] else {
                throw UsageError(message: "unknown option '\(spelled)' for '\(command)'", command: command)
            }
            let value: String
            if !option.takesValue {
                if inlineValue != nil { throw UsageError(message: "\(spelled) takes no value", command: command) }
                value = ""
            } else if let inlineValue {
                value = inlineValue
            } else if index < arguments.count {
                value = arguments[index]
                index += 1
            } else {
                throw UsageError(message: "\(spelled) needs a value", command: command)
            }
            if !option.isRepeatable, let earlier = parsed.values(option).first {
                let twice =
                    option.takesValue
                    ? "\(option.name) given twice ('\(earlier)' and '\(value)'); give it once"
                    : "\(option.name) given twice; give it once"
                throw UsageError(
                    message: option.names.count > 1 ? twice + " (\(aliases(option)))" : twice, command: command)
            }
            let accepted = option.acceptedValues
            if let reason = option.refusedValues[value] {
                throw UsageError(message: "\(spelled) \(value) is not taken: \(reason)", command: command)
            }
            if !accepted.isEmpty, !accepted.contains(value) {
                throw UsageError(
                    message: "\(spelled) takes \(accepted.joined(separator: ", ")), not '\(value)'", command: command)
            }
            if case .integer(_, let range) = option.value {
                guard let number = Int(value), range.contains(number), !value.hasPrefix("+") else {
                    let bounds =
                        range.upperBound == Int.max
                        ? "a whole number of at least \(range.lowerBound)"
                        : "a whole number from \(range.lowerBound) to \(range.upperBound)"
                    throw UsageError(message: "\(spelled) takes \(bounds), not '\(value)'", command: command)
                }
            }
            parsed.record(option, value: value)
        }
        return parsed
    }

    /// `-o and --output are one option`.
    private static func aliases(_ option: CommandOption) -> String {
        option.names.dropLast().joined(separator: ", ") + " and \(option.name) are one option"
    }
}
