import Foundation
import SkanTestSupport
import Testing

@testable import SkanCommands

/// A command run in this process on a `CommandContext` of its own answers as the `skanc` process does, byte for
/// byte and status for status, and runs side by side share nothing: what the command-line tests rely on when
/// they run commands in-process.
@Suite struct InProcessRunTests {
    /// Command lines of every kind of outcome: output, diagnostics, standard input, bad usage, help.
    static let commandLines: [(arguments: [String], stdin: String?)] = [
        (["check", "Schemas/Game.skan"], nil),
        (["check", "Tests/SkanCompilerTests/Fixtures/invalid/out-of-range.skan"], nil),
        (["table", "Schemas/Shop.skan", "--format", "csv"], nil),
        (["decode", "Schemas/Game.skan", "37"], nil),
        (["check", "-"], "schema Broken\nversion 1\nfield x at bits 0...9 {\n"),
        (["postbacks", "Schemas/Game.skan", "-"], #"{"fine-value": 5, "source-app-id": 1}"# + "\n{\n"),
        (["table", "--format", "yaml", "Schemas/Shop.skan"], nil),
        (["no-such-command"], nil),
        (["help", "report"], nil),
        (["--version"], nil),
    ]

    @Test func aRunInThisProcessAnswersAsTheProcessDoes() throws {
        for (arguments, stdin) in Self.commandLines {
            let inProcess = try CLI.inProcess(arguments, stdin: stdin)
            let process = try CLI.process(arguments, stdin: stdin)
            #expect(inProcess.status == process.status, "\(arguments)")
            #expect(inProcess.stdout == process.stdout, "\(arguments)")
            #expect(inProcess.stderr == process.stderr, "\(arguments)")
        }
    }

    /// Every command, as the shell runs it: its help, and a misspelled option's usage error and status 64, the
    /// same from the binary as in-process.
    @Test(arguments: Command.all.map(\.name))
    func everyCommandRunsAsAProcess(_ name: String) throws {
        for arguments in [["help", name], [name, "--no-such-option"]] {
            let process = try CLI.process(arguments)
            let inProcess = try CLI.inProcess(arguments)
            #expect(process.status == (arguments[0] == "help" ? 0 : 64), "\(arguments)")
            #expect(
                process.status == inProcess.status && process.stdout == inProcess.stdout
                    && process.stderr == inProcess.stderr, "\(arguments)")
        }
    }

    @Test func runsSideBySideShareNothing() async throws {
        // Sixteen runs at once, each formatting its own schema from standard input, and each decoding a fine value:
        // every answer is its own, whole.
        let shop = try String(contentsOf: CLI.packageRoot.appendingPathComponent("Schemas/Shop.skan"), encoding: .utf8)
        let answers = try await withThrowingTaskGroup(of: (Int, CLIResult, CLIResult).self) { group in
            for number in 0..<16 {
                group.addTask {
                    let text = shop.replacingOccurrences(of: "schema Shop\n", with: "schema Shop\(number)\n")
                    let formatted = try CLI.inProcess(["fmt", "-"], stdin: text)
                    let decoded = try CLI.inProcess(["decode", "Schemas/Game.skan", "\(number)"])
                    return (number, formatted, decoded)
                }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = ($1.1, $1.2) }
        }
        #expect(answers.count == 16)
        for (number, (formatted, decoded)) in answers {
            #expect(formatted.status == 0 && formatted.stderr.isEmpty, "\(number): \(formatted.stderr)")
            #expect(formatted.stdout.contains("\nschema Shop\(number)\n"), "\(number)")
            #expect(formatted.stdout.components(separatedBy: "\nschema ").count == 2, "\(number)")
            #expect(decoded.stdout.hasPrefix("\(number) (bits "), "\(number): \(decoded.stdout)")
        }
    }
}
