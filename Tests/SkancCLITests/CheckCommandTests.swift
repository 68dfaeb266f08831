import Foundation
import SkanTestSupport
import Testing

@Suite struct CheckCommandTests {
    /// Every schema in Schemas/ and Schemas/Platforms/.
    static let shipped: [String] = ["", "Platforms/"].flatMap { folder in
        ((try? Paths.files(in: Paths.schemas.appendingPathComponent(folder), extension: "skan")) ?? [])
            .map { "Schemas/" + folder + $0.lastPathComponent }
    }

    @Test func everyShippedSchemaIsListed() {
        #expect(Self.shipped.count == 15)
    }

    @Test(arguments: shipped)
    func shippedSchemasAreClean(_ path: String) throws {
        let result = try CLI.run(["check", path])
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.isEmpty)
    }

    @Test func errorsPrintInCompilerFormatWithThePathAsGiven() throws {
        let result = try CLI.run(["check", "Tests/SkanCompilerTests/Fixtures/invalid/overlap.skan"])
        #expect(result.status == 1)
        #expect(
            result.stderr == """
                Tests/SkanCompilerTests/Fixtures/invalid/overlap.skan:10:28: error: bits 2...3 of dayOneAction overlap bits 1...2 of paymentTier; every bit belongs to one declaration [overlap]
                Tests/SkanCompilerTests/Fixtures/invalid/overlap.skan:6:27: note: bits 1...2 of paymentTier declared here

                """)
    }

    @Test func severalSchemasReportTogetherAndFailIfAnyFails() throws {
        let result = try CLI.run(["check", "Schemas/Shop.skan", "Tests/SkanCompilerTests/Fixtures/invalid/syntax.skan"])
        #expect(result.status == 1)
        #expect(
            result.stderr.hasPrefix(
                "Tests/SkanCompilerTests/Fixtures/invalid/syntax.skan:5:24: error: expected a bit index after 'bit', found 'five' [syntax]"
            ))
    }

    @Test func standardInputIsNamedStdin() throws {
        let result = try CLI.run(
            ["check", "-"], stdin: "schema T\nversion 1\nflag a at bit 0\ncoarse { low otherwise }\n")
        #expect(result.status == 0)
        #expect(
            result.stderr
                == "<stdin>:1:8: warning: bits 1...5 belong to no declaration; declare them or mark them 'reserved bits 1...5' [unused-bits]\n"
        )
    }

    @Test func warningsAsErrorsFails() throws {
        let schema = "schema T\nversion 1\nflag a at bit 0\ncoarse { low otherwise }\n"
        let result = try CLI.run(["check", "--warnings-as-errors", "-"], stdin: schema)
        #expect(result.status == 1)
        #expect(result.stderr.contains(": error: bits 1...5"))
    }

    @Test func missingFileIsOneClearLine() throws {
        let result = try CLI.run(["check", "Nope.skan"])
        #expect(result.status == 1)
        #expect(result.stderr == "Nope.skan: error: no such file; check the path [file-unreadable]\n")
        let directory = try CLI.run(["check", "Schemas"])
        #expect(directory.status == 1)
        #expect(directory.stderr == "Schemas: error: is a directory; name a .skan file [file-unreadable]\n")
    }

    @Test func badUsageExits64() throws {
        for arguments in [
            ["check"], ["check", "--frobnicate", "Schemas/Shop.skan"], ["frobnicate"], [], ["help", "nothing"],
        ] {
            let result = try CLI.run(arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.contains("skanc"), "\(arguments)")
        }
    }

    @Test func helpAndVersion() throws {
        let help = try CLI.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: skanc <command>"))
        #expect(help.stdout.contains("check"))
        let checkHelp = try CLI.run(["help", "check"])
        #expect(checkHelp.status == 0)
        #expect(checkHelp.stdout.hasPrefix("USAGE: skanc check SCHEMA..."))
        #expect(try CLI.run(["check", "--help"]).stdout == checkHelp.stdout)
        let version = try CLI.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("skanc "))
    }
}
