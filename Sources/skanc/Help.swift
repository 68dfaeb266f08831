/// The text of `skanc --help`.
enum Help {
    static var overview: String {
        """
        OVERVIEW: skanc compiles SKAdNetwork and AdAttributionKit conversion-value schemas (*.skan).

        USAGE: skanc <command> [options]

        COMMANDS:
        \(Command.all.map { "  " + $0.name.padding(10) + summary($0) }.joined(separator: "\n"))

        OPTIONS:
          -h, --help      Show this help, or 'skanc help <command>' for one command.
          --version       Show the version.

        See 'skanc help <command>' for the options of each command.
        """
    }

    private static func summary(_ command: Command) -> String {
        let lines = command.help.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.count > 2 ? String(lines[2].prefix { $0 != "." }) : ""
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
