import Foundation
import SkanTestSupport
import Testing

/// `skanc diff` and `skanc check --against`: exit codes and output, as CI scripts see them.
@Suite struct EvolutionCommandTests {
    static let evolution = "Tests/SkanCompilerTests/Fixtures/Evolution/"

    @Test func diffExitsWithWhetherValuesChangeMeaning() throws {
        let same = try CLI.run(["diff", "Schemas/Shop.skan", "Schemas/Shop.skan"])
        #expect(same.status == 0)
        #expect(same.stdout == "Shop: version 3 → 3\nno value changes meaning\n")
        let renamed = try CLI.run(["diff", "Schemas/Shop.skan", Self.evolution + "Renamed.skan"])
        #expect(renamed.status == 0)
        #expect(renamed.stdout.contains("`registered` is now `signedUp` (bit 0)"))
        let widened = try CLI.run(["diff", "Schemas/Shop.skan", Self.evolution + "Widened.skan", "--format", "json"])
        #expect(widened.status == 1)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(widened.stdout.utf8)) as? [String: Any])
        #expect(json["changes_meaning"] as? Bool == true)
        #expect((json["fine_values"] as? [Any])?.count == 50)
        #expect(widened.stderr.isEmpty)
    }

    @Test func diffOfABrokenOrMissingSchemaExitsTwo() throws {
        let broken = try CLI.run(["diff", "Schemas/Shop.skan", "Tests/SkanCompilerTests/Fixtures/invalid/overlap.skan"])
        #expect(broken.status == 2)
        #expect(broken.stdout.isEmpty)
        #expect(broken.stderr.contains("[overlap]"))
        let missing = try CLI.run(["diff", "nowhere.skan", "Schemas/Shop.skan"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("nowhere.skan: error: no such file"))
    }

    @Test func diffUsageMistakesExit64() throws {
        for arguments in [
            ["diff"], ["diff", "Schemas/Shop.skan"], ["diff", "a", "b", "c"], ["diff", "a", "b", "--format", "yaml"],
        ] {
            let result = try CLI.run(arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stdout.isEmpty)
        }
        let help = try CLI.run(["diff", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: skanc diff OLD NEW"))
    }

    @Test func checkAgainstAnOldVersion() throws {
        let clean = try CLI.run(["check", "--against", "Schemas/Shop.skan", Self.evolution + "Widened.skan"])
        #expect(clean.status == 0)
        #expect(clean.stderr.isEmpty)
        let unchanged = try CLI.run(["check", "--against", "Schemas/Shop.skan", Self.evolution + "CoarseAndLock.skan"])
        #expect(unchanged.status == 1)
        #expect(
            unchanged.stderr.hasPrefix(
                Self.evolution
                    + "CoarseAndLock.skan:5:9: error: values change meaning but the version is still 3; make it 4, so postbacks from both layouts can be told apart [version-unchanged]\n"
                    + Self.evolution + "CoarseAndLock.skan: note: coarse values: window 1: high → low for 4, 12\n"))
        let renamed = try CLI.run(["check", "--against", "Schemas/Shop.skan", Self.evolution + "Renamed.skan"])
        #expect(renamed.status == 0)
        #expect(renamed.stderr.isEmpty)
        let brokenOld = try CLI.run([
            "check", "--against", "Tests/SkanCompilerTests/Fixtures/invalid/overlap.skan", "Schemas/Shop.skan",
        ])
        #expect(brokenOld.status == 1)
        #expect(brokenOld.stderr.contains("the schema to check against has errors"))
    }
}

/// `skanc fmt`: --check for CI, --in-place, standard output, and its usage errors.
@Suite struct FmtCommandTests {
    /// A folder of the test's own holding `text` as `Messy.skan`.
    static func scratchCopy(_ text: String) throws -> (directory: TemporaryDirectory, file: URL) {
        let directory = try TemporaryDirectory()
        return (directory, try directory.write(text, to: "Messy.skan"))
    }

    static let messy = "schema T version 1 flag a at bit 0 reserved bits 1...5 coarse { low otherwise }\n"
    static let tidy = """
        schema T
        version 1

        flag a at bit 0

        reserved bits 1...5

        coarse {
          low otherwise
        }

        """

    @Test func checkNamesTheFilesThatWouldChange() throws {
        let shipped = try CLI.run([
            "fmt", "--check", "Schemas/Shop.skan", "Schemas/EventFlags.skan", "Schemas/Subscription.skan",
        ])
        #expect(shipped.status == 0)
        #expect(shipped.stdout.isEmpty)
        let (scratch, messy) = try Self.scratchCopy(Self.messy)
        defer { withExtendedLifetime(scratch) {} }
        let result = try CLI.run(["fmt", "--check", "Schemas/Shop.skan", messy.path])
        #expect(result.status == 1)
        #expect(result.stdout == messy.path + "\n")
        #expect(try String(contentsOf: messy, encoding: .utf8) == Self.messy)
    }

    @Test func inPlaceRewritesAndStandardOutputPrints() throws {
        let printed = try CLI.run(["fmt", "-"], stdin: Self.messy)
        #expect(printed.status == 0)
        #expect(printed.stdout == Self.tidy)
        let (scratch, messy) = try Self.scratchCopy(Self.messy)
        defer { withExtendedLifetime(scratch) {} }
        let result = try CLI.run(["fmt", "--in-place", messy.path])
        #expect(result.status == 0)
        #expect(try String(contentsOf: messy, encoding: .utf8) == Self.tidy)
        #expect(try CLI.run(["fmt", "--check", messy.path]).status == 0)
    }

    @Test func syntaxErrorsAndUsage() throws {
        let broken = try CLI.run(["fmt", "Tests/SkanCompilerTests/Fixtures/invalid/syntax.skan"])
        #expect(broken.status == 1)
        #expect(broken.stdout.isEmpty)
        #expect(broken.stderr.contains("[syntax]"))
        #expect(broken.stderr.contains("not formatted: fix the syntax errors first"))
        #expect(try CLI.run(["fmt"]).status == 64)
        #expect(try CLI.run(["fmt", "--check", "--in-place", "Schemas/Shop.skan"]).status == 64)
        #expect(try CLI.run(["fmt", "--in-place", "-"], stdin: Self.messy).status == 64)
    }
}

/// Versions live together: `check --live-together` and `decode` with several schemas.
@Suite struct LiveVersionsCommandTests {
    static let marked = "Tests/SkanCompilerTests/Fixtures/ShopMarked.skan"
    static let unmarked = "Tests/SkanCompilerTests/Fixtures/ShopV4.skan"

    @Test func checkProvesMarkedVersionsApart() throws {
        let apart = try CLI.run(["check", "--live-together", "Schemas/Shop.skan", Self.marked])
        #expect(apart.status == 0)
        #expect(apart.stderr.isEmpty)
        let overlapping = try CLI.run(["check", "--live-together", "Schemas/Shop.skan", Self.unmarked])
        #expect(overlapping.status == 1)
        #expect(
            overlapping.stderr.hasPrefix(
                Self.unmarked
                    + ":5:9: error: 32 fine values are valid in both version 3 and version 4, so their postbacks cannot be told apart: 0...31 [version-overlap]\n"
            ))
    }

    @Test func decodeUsesTheVersionEachValueBelongsTo() throws {
        let result = try CLI.run(["decode", "Schemas/Shop.skan," + Self.marked, "11", "43", "--format", "json"])
        #expect(result.status == 0)
        let items = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(items.map { $0["schema_version"] as? Int } == [3, 4])
        let ambiguous = try CLI.run(["decode", "Schemas/Shop.skan," + Self.unmarked, "11", "43", "99"])
        #expect(ambiguous.status == 1)
        #expect(ambiguous.stdout.hasPrefix("11: ambiguous-version: valid in versions 3, 4 of ShopV4"))
        #expect(ambiguous.stdout.contains("43 (bits 101011): ShopV4 v4"))
        #expect(ambiguous.stdout.hasSuffix("99: invalid-fine: valid in none of versions 3, 4 of ShopV4\n"))
    }
}

/// `skanc postbacks` with versions live together: each line decoded with its version.
@Suite struct MixedVersionPostbacksTests {
    /// Postbacks of Shop version 3 (fine 11, 5) and ShopMarked version 4 (43, 37), one out of range, one
    /// coarse.
    static let lines: String = {
        func line(_ index: Int, _ value: String) -> String {
            #"{"version":"4.0","ad-network-id":"example.skadnetwork","source-identifier":"1234","app-id":1,"transaction-id":"00000000-0000-0000-0000-00000000000\#(index)","redownload":false,"fidelity-type":1,"did-win":true,"postback-sequence-index":\#(value)}"#
        }
        return [
            line(0, #"0,"conversion-value":11"#), line(1, #"0,"conversion-value":43"#),
            line(2, #"0,"conversion-value":64"#), line(3, #"0,"conversion-value":5"#),
            line(4, #"0,"conversion-value":37"#), line(5, #"1,"coarse-conversion-value":"high""#),
        ].joined(separator: "\n") + "\n"
    }()

    static func cells(_ csv: String, _ columns: [String]) -> [[String]] {
        let rows = csv.split(separator: "\r\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        let header = rows[0]
        return rows.dropFirst().map { row in columns.map { row[header.firstIndex(of: $0)!] } }
    }

    @Test func eachLineIsDecodedWithItsVersion() throws {
        let result = try CLI.run(
            ["postbacks", "Schemas/Shop.skan,Tests/SkanCompilerTests/Fixtures/ShopMarked.skan", "--no-verify"],
            stdin: Self.lines)
        #expect(result.status == 1)  // the out-of-range line
        let header = result.stdout.split(separator: "\r\n").first.map(String.init) ?? ""
        #expect(
            header.hasSuffix(
                "fine_value,coarse_value,schema_version,registered,payment_tier,day_one_action,coarse_meaning"))
        #expect(
            Self.cells(result.stdout, ["status", "fine_value", "schema_version", "day_one_action"]) == [
                ["ok", "11", "3", "browsed"], ["ok", "43", "4", "searched"], ["out-of-range", "64", "", ""],
                ["ok", "5", "3", "none"], ["ok", "37", "4", "none"], ["ok", "", "", ""],
            ])
    }

    @Test func versionsThatOverlapGiveAmbiguousVersion() throws {
        let result = try CLI.run(
            [
                "postbacks", "Schemas/Shop.skan,Tests/SkanCompilerTests/Fixtures/ShopV4.skan", "--no-verify",
                "--summary",
            ],
            stdin: Self.lines)
        #expect(result.status == 1)
        #expect(
            Self.cells(result.stdout, ["status", "schema_version", "subscribed"]) == [
                ["ambiguous-version", "", ""], ["ok", "4", "true"], ["out-of-range", "", ""],
                ["ambiguous-version", "", ""], ["ok", "4", "true"], ["ok", "", ""],
            ])
        #expect(result.stderr.contains("  ambiguous-version: 2\n"))
        #expect(result.stderr.contains("  version 4: 2\n"))
    }

    @Test func oneSchemaKeepsItsColumns() throws {
        let result = try CLI.run(["postbacks", "Schemas/Shop.skan", "--no-verify"], stdin: Self.lines)
        #expect(!result.stdout.contains("schema_version"))
        #expect(
            Self.cells(result.stdout, ["status"]).map { $0[0] } == [
                "ok", "invalid-fine", "out-of-range", "ok", "invalid-fine", "ok",
            ])
    }

    @Test func aTableAcrossLiveVersions() throws {
        let marked = try CLI.run(
            ["table", "Schemas/Shop.skan,Tests/SkanCompilerTests/Fixtures/ShopMarked.skan", "--format", "csv"])
        #expect(marked.status == 0)
        let fine = Self.cells(marked.stdout, ["fine_value", "valid", "schema_version", "day_one_action"])
        #expect(fine.count == 64)
        #expect(fine[11] == ["11", "true", "3", "browsed"])
        #expect(fine[43] == ["43", "true", "4", "searched"])
        let coarse = try CLI.run(
            [
                "table", "Schemas/Shop.skan,Tests/SkanCompilerTests/Fixtures/ShopMarked.skan", "--format", "csv",
                "--table", "coarse",
            ])
        #expect(coarse.stdout.hasPrefix("schema_version,window,coarse_value,rule,states\r\n3,1,low,"))
        let overlapping = try CLI.run(
            ["table", "Schemas/Shop.skan,Tests/SkanCompilerTests/Fixtures/ShopV4.skan", "--format", "csv"])
        #expect(overlapping.stdout.contains("\r\n11,001011,false,\"ambiguous-version: valid in versions 3, 4\","))
    }
}
