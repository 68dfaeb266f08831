/// What a command line says: flags given, option values, and the rest in order.
struct ParsedArguments {
    var flags: Set<String> = []
    var options: [String: String] = [:]
    var positionals: [String] = []
}

/// Splits a command line by a command's declared options. `--name value` and `--name=value` both work,
/// `--` ends the options, and `-` (standard input) and negative numbers are positionals.
enum ArgumentParser {
    static func parse(_ arguments: [String], for command: Command) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
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
            let name = String(argument.prefix { $0 != "=" })
            let inlineValue = argument.contains("=") ? String(argument.drop { $0 != "=" }.dropFirst()) : nil
            if name == "--help" || name == "-h" || command.flags.contains(name) {
                if inlineValue != nil { throw UsageError(message: "\(name) takes no value", command: command.name) }
                parsed.flags.insert(name == "-h" ? "--help" : name)
                continue
            }
            guard let allowed = command.options[name] else {
                throw UsageError(message: "unknown option '\(name)' for '\(command.name)'", command: command.name)
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < arguments.count {
                value = arguments[index]
                index += 1
            } else {
                throw UsageError(message: "\(name) needs a value", command: command.name)
            }
            if let earlier = parsed.options[name] {
                throw UsageError(
                    message: "\(name) given twice ('\(earlier)' and '\(value)'); give it once", command: command.name)
            }
            if !allowed.isEmpty, !allowed.contains(value) {
                throw UsageError(
                    message: "\(name) takes \(allowed.joined(separator: ", ")), not '\(value)'", command: command.name)
            }
            parsed.options[name] = value
        }
        return parsed
    }
}
