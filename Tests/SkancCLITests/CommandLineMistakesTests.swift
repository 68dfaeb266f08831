import Foundation
import SkanTestSupport
import Testing

/// Command-line mistakes get exit status 64 (or 1 for an unreadable input) and a sentence that says what to do.
@Suite struct CommandLineMistakesTests {
    @Test func standardInputCanBeReadOnce() throws {
        let result = try CLI.run(["postbacks", "-", "-"], stdin: "")
        #expect(result.status == 64)
        #expect(result.stderr.contains("standard input (-) can be read once"))
    }

    @Test func anOptionGivenTwiceIsRefused() throws {
        let result = try CLI.run(["table", "Schemas/Shop.skan", "--format", "csv", "--format", "json"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--format given twice ('csv' and 'json'); give it once"))
        #expect(result.stdout.isEmpty)
    }

    @Test func aDirectoryOfPostbacksIsNamedAsSuch() throws {
        let result = try CLI.run(["postbacks", "Schemas/Shop.skan", "Schemas"])
        #expect(result.status == 1)
        #expect(
            result.stderr == "Schemas: error: is a directory; name a file of postbacks (JSON lines) [file-unreadable]\n"
        )
        let schema = try CLI.run(["check", "Schemas"])
        #expect(schema.stderr == "Schemas: error: is a directory; name a .skan file [file-unreadable]\n")
    }

    @Test(arguments: ["-v", "-V", "version"])
    func versionMisspelledSuggestsTheFlag(_ argument: String) throws {
        let result = try CLI.run([argument])
        #expect(result.status == 64)
        #expect(result.stderr.contains("unknown command '\(argument)'; did you mean --version?"))
        #expect(try CLI.run(["--version"]).stdout.hasPrefix("skanc "))
    }
}
