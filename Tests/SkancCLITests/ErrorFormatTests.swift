import Foundation
import SkanTestSupport
import Testing

/// `--error-format text|json|github-actions` on the commands teams run in CI: the same findings, as compiler
/// text (unchanged), JSON lines for tools, or GitHub Actions annotations.
@Suite struct ErrorFormatTests {
    static let broken = "Tests/SkanCompilerTests/Fixtures/invalid/unknown-name.skan"

    @Test func textIsTheDefaultAndUnchanged() throws {
        let plain = try CLI.run(["check", Self.broken])
        let text = try CLI.run(["check", Self.broken, "--error-format", "text"])
        #expect(plain.status == 1 && text.status == 1)
        #expect(plain.stderr == text.stderr)
        #expect(plain.stderr.hasPrefix("\(Self.broken):9:15: error: no flag or field named 'registerd'"))
    }

    @Test func jsonIsOneObjectALineWithEveryPart() throws {
        let run = try CLI.run(["check", Self.broken, "--error-format", "json"])
        #expect(run.status == 1)
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(object["path"] as? String == Self.broken)
        #expect(object["line"] as? Int == 9)
        #expect(object["column"] as? Int == 15)
        #expect(object["severity"] as? String == "error")
        #expect(object["code"] as? String == "unknown-name")
        #expect((object["message"] as? String)?.hasPrefix("no flag or field named 'registerd'") == true)
        #expect(object["notes"] is [Any])
    }

    @Test func githubActionsAnnotatesTheLine() throws {
        let run = try CLI.run(["check", Self.broken, "--error-format", "github-actions"])
        #expect(run.status == 1)
        #expect(
            run.stderr.hasPrefix(
                "::error file=\(Self.broken),line=9,col=15,title=unknown-name::no flag or field named 'registerd'"))
        // A file that cannot be read is an annotation of the file, and a warning a warning.
        let missing = try CLI.run(["lint", "no/such.skan", "--error-format", "github-actions"])
        #expect(missing.stderr == "::error file=no/such.skan,title=file-unreadable::no such file; check the path\n")
        let lint = try CLI.run(["lint", "Schemas/Game.skan", "--error-format", "github-actions"])
        #expect(lint.status == 0)
        let annotations = lint.stderr.split(separator: "\n")
        #expect(!annotations.isEmpty)
        #expect(annotations.allSatisfy { $0.hasPrefix("::warning file=Schemas/Game.skan,line=") })
    }

    /// Workflow commands end at a line break and split properties at `,` and `:`: both are escaped.
    @Test func annotationsEscapeWhatWouldEndThem() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("skanc-ef-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("a,b:c%.skan").path
        try "schema A\nversion 1\nflag x at bit 0\ncoarse { low when y  high otherwise }\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        let run = try CLI.run(["check", path, "--error-format", "github-actions"])
        let escapedPath = path.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: ",", with: "%2C")
            .replacingOccurrences(of: ":", with: "%3A")
        #expect(run.stderr.hasPrefix("::error file=\(escapedPath),line=4,"), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").allSatisfy { $0.hasPrefix("::") })
    }

    @Test(arguments: ["check", "lint", "export", "plist"])
    func everyCIFacingCommandTakesIt(_ command: String) throws {
        let help = try CLI.run(["help", command]).stdout
        #expect(help.contains("--error-format FORMAT"))
    }
}
