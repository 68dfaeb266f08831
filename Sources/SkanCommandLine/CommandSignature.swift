/// What a command is on the command line: its name, operands, options and help, declared once. Parsing,
/// the usage line and `--help` are derived from it.
package struct CommandSignature: Sendable {
    package var name: String
    /// One line for the overview of all commands.
    package var summary: String
    /// The operands as the usage line shows them (`SCHEMA[,SCHEMA...] [FILE...]`).
    package var operands: String
    /// The options, in the order `--help` lists them; `-h, --help` is added.
    package var options: [CommandOption]
    /// What the command does, between the usage line and the options (paragraphs as written).
    package var discussion: String
    /// The exit statuses, after the options (filled to the help's width).
    package var exitStatus: String

    package init(
        name: String, summary: String, operands: String, options declared: [any OptionDeclaration], discussion: String,
        exitStatus: String
    ) {
        let options = declared.map(\.option)
        // Two options spelled alike would leave one of them unreachable (the parser keeps one per spelling).
        let twice = Self.spelledTwice(options)
        precondition(twice.isEmpty, "'\(name)' has options spelled alike: \(twice.joined(separator: ", "))")
        self.name = name
        self.summary = summary
        self.operands = operands
        self.options = options
        self.discussion = discussion
        self.exitStatus = exitStatus
    }

    /// The spellings that name more than one of `options` (or `-h`/`--help`), in the order first written.
    package static func spelledTwice(_ options: [CommandOption]) -> [String] {
        var seen = Set<String>()
        var twice: [String] = []
        for name in (options + [.help]).flatMap(\.names) where !seen.insert(name).inserted && !twice.contains(name) {
            twice.append(name)
        }
        return twice
    }

    /// Every option the command accepts, `--help` included.
    package var acceptedOptions: [CommandOption] { options + [.help] }

    /// The command line after the command's name, split by this command's options.
    package func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        try ArgumentParser.parse(arguments, options: options, command: name)
    }

    /// The text of `skanc help NAME` and `skanc NAME --help`.
    package func help(program: String) -> String {
        let prefix = "USAGE: \(program) \(name) "
        let usage = HelpLayout.fill(
            ([operands] + options.map(\.synopsis)).filter { !$0.isEmpty }, firstPrefix: prefix,
            indent: String(repeating: " ", count: prefix.count))
        var sections = [usage]
        if !discussion.isEmpty { sections.append(discussion) }
        sections.append("OPTIONS:\n" + HelpLayout.optionList(acceptedOptions))
        sections.append(
            HelpLayout.fill(
                exitStatus.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init),
                firstPrefix: "EXIT STATUS: ", indent: ""))
        return sections.joined(separator: "\n\n")
    }
}
