import SkanCommandLine

/// The text of `skanc --help`.
enum Help {
    static var overview: String {
        """
        OVERVIEW: skanc compiles SKAdNetwork and AdAttributionKit conversion-value schemas (*.skan) and reads
        what they produce: postbacks, warehouse tables, Apple Ads records, Info.plist keys.

        USAGE: skanc <command> [options]

        COMMANDS:
        \(Command.all.map { "  " + $0.name.padding(nameWidth) + $0.signature.summary }.joined(separator: "\n"))

        OPTIONS:
          -h, --help      Show this help, or 'skanc help <command>' for one command.
          --version       Show the version.

        See 'skanc help <command>' for the options of each command.
        """
    }

    /// The widest command name and two spaces, so that every summary starts in one column.
    private static var nameWidth: Int { (Command.all.map(\.name.count).max() ?? 0) + 2 }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
