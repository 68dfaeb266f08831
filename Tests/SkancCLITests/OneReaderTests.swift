import Foundation
import SkanTestSupport
import Testing

/// Every command opens its inputs one way: regular files, pipes and process substitutions, devices and `-`,
/// and every failure is a `file-unreadable` diagnostic with exit 1.
@Suite struct OneReaderTests {
    /// `attribution` took an I/O error for the end of the file: the header, exit 0, data lost.
    @Test func anErrorWhileReadingIsReportedByEveryStreamingCommand() throws {
        guard FileManager.default.fileExists(atPath: "/proc/self/mem") else { return }
        for arguments in [["attribution", "/proc/self/mem"], ["postbacks", "Schemas/Shop.skan", "/proc/self/mem"]] {
            let run = try CLI.run(arguments)
            #expect(run.status == 1, "\(arguments)")
            #expect(run.stderr.contains("/proc/self/mem: error: reading stopped ("), "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("[file-unreadable]"))
        }
    }

    /// `simulate`, `suggest` and `import` refused a process substitution that `check` read.
    @Test func processSubstitutionsAreReadByEveryCommand() throws {
        let journey = #"{"hour": 0.5}"#
        let commands: [(arguments: String, expected: String)] = [
            ("check <(cat Schemas/Shop.skan)", ""),
            ("simulate Schemas/Shop.skan <(printf '%s\\n' '\(journey)')", "registered=false"),
            ("suggest buckets --from <(printf '1\\n2\\n5\\n9\\n') --bits 1", "field revenue"),
            ("import meta <(cat Tests/SkanPlatformsTests/Fixtures/meta-config.json) --name Basic", "schema Basic"),
        ]
        for (arguments, expected) in commands {
            let run = try CLI.run(
                ["-c", "exec \(CLI.executable.path) \(arguments)"], executable: URL(fileURLWithPath: "/bin/bash"))
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
            #expect(expected.isEmpty || run.stdout.contains(expected), "\(arguments): \(run.stdout)")
        }
    }

    @Test func aDirectoryOrAMissingFileIsTheSameDiagnosticEverywhere() throws {
        for arguments in [
            ["check", "Schemas"], ["simulate", "Schemas/Shop.skan", "Schemas"], ["attribution", "Schemas"],
            ["postbacks", "Schemas/Shop.skan", "Schemas"], ["suggest", "buckets", "--from", "Schemas", "--bits", "1"],
        ] {
            let run = try CLI.run(arguments)
            #expect(run.status == 1, "\(arguments)")
            #expect(run.stderr.contains("Schemas: error: is a directory; name "), "\(arguments): \(run.stderr)")
        }
        for arguments in [
            ["check", "nope.skan"], ["simulate", "Schemas/Shop.skan", "nope.jsonl"], ["attribution", "nope"],
        ] {
            let run = try CLI.run(arguments)
            #expect(run.status == 1)
            #expect(run.stderr.contains(": error: no such file; check the path [file-unreadable]"), "\(run.stderr)")
        }
    }
}
