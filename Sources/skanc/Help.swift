/// The text of `skanc --help`.
enum Help {
    static var overview: String {
        """
        OVERVIEW: skanc compiles SKAdNetwork and AdAttributionKit conversion-value schemas (*.skan).

        USAGE: skanc <command> [options]

        COMMANDS:
        \(Command.all.map { "  " + $0.name.padding(11) + $0.summary }.joined(separator: "\n"))

        OPTIONS:
          -h, --help      Show this help, or 'skanc help <command>' for one command.
          --version       Show the version.

        See 'skanc help <command>' for the options of each command.
        """
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
