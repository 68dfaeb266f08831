import Foundation
import SkanTestSupport
import Testing

/// `skanc lsp` through a real client: Neovim's built-in LSP client, headless (Tests/Scripts/nvim_lsp_client.lua),
/// reads the diagnostics Neovim itself received (`vim.diagnostic.get`), formats and hovers through the client.
@Suite struct NeovimClientTests {
    static let typo = """
        schema Typo
        version 1

        event purchase

        flag   bought at bit 0 "Achète — 🎉" when  purchas

        reserved bits 1...5

        coarse { low otherwise }

        """

    @Test func neovimShowsTheDiagnosticWhereItIsAndFormatsAsFmt() throws {
        let directory = try TemporaryDirectory()
        let schema = directory.url.appendingPathComponent("Typo.skan")
        try Self.typo.write(to: schema, atomically: true, encoding: .utf8)
        let output = directory.url.appendingPathComponent("seen.json")
        var environment = ProcessInfo.processInfo.environment
        environment["SKANC"] = CLI.executable.path
        environment["SKANC_SCHEMA"] = schema.path
        environment["SKANC_OUT"] = output.path
        let run = try ChildProcess.run(
            try ChildProcess.onPath("nvim"),
            ["--headless", "-u", "NONE", "-c", "luafile Tests/Scripts/nvim_lsp_client.lua"],
            environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        let seen = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [String: Any])
        #expect(seen["published"] as? Bool == true)
        let diagnostics = try #require(seen["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.count == 1)
        let typo = try #require(diagnostics.first)
        #expect(typo["code"] as? String == "unknown-name")
        #expect(typo["severity"] as? Int == 1)
        #expect(typo["message"] as? String == "no flag, field or event named 'purchas'; did you mean 'purchase'?")
        // Neovim turns the protocol's UTF-16 positions back into byte columns: 'purchas' starts at byte 48
        // (0-based) after é, — and 🎉, exactly where `skanc check` puts it (column 49).
        #expect(typo["line"] as? Int == 5)
        #expect(typo["col"] as? Int == 48)
        #expect(typo["end_col"] as? Int == 55)
        let check = try CLI.run(["check", schema.path])
        #expect(check.stderr.contains("Typo.skan:6:49: error: no flag, field or event named 'purchas'"))
        // With the typo fixed, formatting through the client gives what `skanc fmt` writes.
        let fixed = Self.typo.replacingOccurrences(of: "when  purchas\n", with: "when purchase\n")
        let fmt = try CLI.run(["fmt", "-"], stdin: fixed)
        #expect(fmt.status == 0)
        #expect(seen["formatted"] as? String == fmt.stdout)
        #expect(seen["hover"] as? String == "**bought**: flag, bit 0: set → fine value +1")
    }
}
