import Foundation
import SkanCommandLine
import SkanSchemaTools
import SkanTestSupport
import Testing

@testable import SkanCommands

/// Every command's options come from one declaration: its `--help` lists exactly what its parser accepts, by
/// every spelling, and the shared options behave the same in every command.
@Suite struct CommandDeclarationTests {
    @Test(arguments: Command.all.map(\.name))
    func helpListsExactlyTheOptionsTheCommandAccepts(_ name: String) throws {
        let command = try #require(Command.named(name))
        let help = try CLI.run(["help", name])
        #expect(help.status == 0)
        #expect(try CLI.run([name, "--help"]).stdout == help.stdout)
        let listed = OptionLabels.read(help.stdout)
        #expect(listed == command.signature.acceptedOptions.map { $0.names.joined(separator: ", ") })
        // What the help lists, the running binary accepts, by every spelling (the value may then be refused
        // for what it is, never the option for its name).
        for option in command.signature.acceptedOptions where option != .help {
            for spelled in option.names {
                let run = try CLI.run([name, spelled] + (option.takesValue ? ["x"] : []) + ["--help"])
                #expect(!run.stderr.contains("unknown option"), "\(name) \(spelled): \(run.stderr)")
            }
        }
        #expect(help.stdout.split(separator: "\n").allSatisfy { $0.count <= HelpLayout.width })
    }

    /// `skanc help lint` lists every lint, from the lints' own declaration.
    @Test func lintHelpListsEveryLint() throws {
        let help = try CLI.run(["help", "lint"]).stdout
        for lint in SchemaLints.Lint.allCases {
            #expect(help.contains("  \(lint.rawValue) ") && help.contains(lint.summary), "\(lint.rawValue)")
        }
    }

    /// `-o` and `--output` are one option everywhere: given twice is bad usage in every command that writes a
    /// file (it was ignored by `generate`, `export` and `import`, and refused by `report`).
    @Test(
        arguments: Command.all.filter { $0.signature.options.contains { $0.names == ["-o", "--output"] } }.map(\.name))
    func outputGivenTwiceIsBadUsageEverywhere(_ name: String) throws {
        let run = try CLI.run([name, "Schemas/Shop.skan", "-o", "/tmp/a", "--output", "/tmp/b"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("--output given twice ('/tmp/a' and '/tmp/b'); give it once"))
    }

    @Test func theOverviewListsEveryCommand() throws {
        let overview = try CLI.run(["--help"]).stdout
        for command in Command.all { #expect(overview.contains("  \(command.name) ")) }
    }
}

/// The labels of a help's OPTIONS section as a reader sees them: `-o, --output` from `  -o, --output FILE  ...`.
enum OptionLabels {
    static func read(_ help: String) -> [String] {
        guard let start = help.range(of: "\nOPTIONS:\n"), let end = help.range(of: "\n\nEXIT STATUS:") else {
            return []
        }
        return help[start.upperBound..<end.lowerBound].split(separator: "\n").compactMap { line in
            guard line.hasPrefix("  -") else { return nil }
            var names: [String] = []
            for word in line.dropFirst(2).split(separator: " ") {
                guard word.hasPrefix("-") else { break }
                names.append(String(word.hasSuffix(",") ? word.dropLast() : word))
                if !word.hasSuffix(",") { break }
            }
            return names.joined(separator: ", ")
        }
    }
}
