import Foundation
import SkanTestSupport
import Testing

/// `skanc lsp` through Emacs's eglot (Debian's Emacs 28 and `elpa-eglot`), headless: the README's setup copied as
/// written into the init file, then Tests/Scripts/emacs_eglot_client.el opens a schema, reads what Flymake got,
/// and formats through eglot.
@Suite struct EmacsClientTests {
    /// The same schema as Neovim's test: a misspelled event after é, — and 🎉.
    static let typo = NeovimClientTests.typo

    @Test func theReadmesSetupShowsDiagnosticsAndFormats() throws {
        let readme = try String(contentsOf: Paths.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "built in from 29), in `init.el`:"))
        let rest = readme[section.upperBound...]
        let start = try #require(rest.range(of: "```elisp\n"))
        let end = try #require(rest[start.upperBound...].range(of: "```"))
        let directory = try TemporaryDirectory()
        let initFile = directory.url.appendingPathComponent("init.el")
        try String(rest[start.upperBound..<end.lowerBound]).write(to: initFile, atomically: true, encoding: .utf8)
        let schema = directory.url.appendingPathComponent("Typo.skan")
        try Self.typo.write(to: schema, atomically: true, encoding: .utf8)
        let output = directory.url.appendingPathComponent("seen.json")
        var environment = ProcessInfo.processInfo.environment
        // `skanc` found on the PATH, as the README's setup names it.
        environment["PATH"] = CLI.executable.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "")
        (environment["SKANC_SCHEMA"], environment["SKANC_OUT"]) = (schema.path, output.path)
        environment["HOME"] = directory.url.path
        let run = try ChildProcess.run(
            try ChildProcess.onPath("emacs"),
            ["--batch", "-l", initFile.path, "-l", "Tests/Scripts/emacs_eglot_client.el"], environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [String: Any])
        #expect(seen["mode"] as? String == "skan-mode")
        #expect(seen["connected"] as? Bool == true, "\(run.stderr)")
        let diagnostics = try #require(seen["diagnostics"] as? [[String: Any]])
        try #require(diagnostics.count == 1, "\(diagnostics)")
        #expect(
            diagnostics[0]["message"] as? String
                == "skanc [unknown-name]: no flag, field or event named 'purchas'; did you mean 'purchase'?")
        #expect(diagnostics[0]["type"] as? String == "eglot-error")
        // Emacs counts characters: the protocol's UTF-16 column (🎉 is two units) comes back to where 'purchas'
        // stands, as `skanc check` puts it (column 49 in bytes).
        let line = Self.typo.split(separator: "\n", omittingEmptySubsequences: false)[5]
        let column = line.unicodeScalars.distance(
            from: line.unicodeScalars.startIndex, to: try #require(line.range(of: "purchas")).lowerBound)
        #expect(diagnostics[0]["line"] as? Int == 6)
        #expect(diagnostics[0]["column"] as? Int == column)
        let fmt = try CLI.run(["fmt", "-"], stdin: Self.typo)
        #expect(fmt.status == 0 && seen["formatted"] as? String == fmt.stdout)
    }
}
