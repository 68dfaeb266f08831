import Foundation
import SkanTestSupport
import Testing

/// `skanc lsp` through a real client: Neovim's built-in LSP client, headless (Tests/Scripts/nvim_lsp_client.lua),
/// reads the diagnostics Neovim itself received (`vim.diagnostic.get`), applies the server's quick fix, formats,
/// hovers and completes through the client.
@Suite struct NeovimClientTests {
    static let typo = """
        schema Typo
        version 1

        event purchase

        flag   bought at bit 0 "Achète — 🎉" when  purchas

        reserved bits 1...5

        coarse { low otherwise }

        """

    /// What Neovim saw on `text`, opened as a file of a temporary folder.
    static func neovim(_ text: String, hover: String, completeAfter: String) throws -> [String: Any] {
        let directory = try TemporaryDirectory()
        let schema = directory.url.appendingPathComponent("Schema.skan")
        try text.write(to: schema, atomically: true, encoding: .utf8)
        let output = directory.url.appendingPathComponent("seen.json")
        var environment = ProcessInfo.processInfo.environment
        environment["SKANC"] = CLI.executable.path
        environment["SKANC_SCHEMA"] = schema.path
        environment["SKANC_OUT"] = output.path
        environment["SKANC_HOVER"] = hover
        environment["SKANC_COMPLETE"] = completeAfter
        let run = try ChildProcess.run(
            try ChildProcess.onPath("nvim"),
            ["--headless", "-u", "NONE", "-c", "luafile Tests/Scripts/nvim_lsp_client.lua"],
            environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [String: Any])
    }

    /// The README's setup, its Lua lines copied as written into Neovim's init file: a `.skan` file gets the
    /// `skan` filetype, `skanc lsp` (found on the PATH, as the README says) attaches and publishes diagnostics.
    @Test func theReadmesSetupStartsTheServer() throws {
        let readme = try String(contentsOf: Paths.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "Neovim (0.7 or later, built-in client), in `init.lua`:"))
        let rest = readme[section.upperBound...]
        let start = try #require(rest.range(of: "```lua\n"))
        let end = try #require(rest[start.upperBound...].range(of: "```"))
        let lines = String(rest[start.upperBound..<end.lowerBound])
        let directory = try TemporaryDirectory()
        let initFile = directory.url.appendingPathComponent("init.lua")
        try lines.write(to: initFile, atomically: true, encoding: .utf8)
        let schema = directory.url.appendingPathComponent("Typo.skan")
        try Self.typo.write(to: schema, atomically: true, encoding: .utf8)
        let output = directory.url.appendingPathComponent("seen.json")
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = CLI.executable.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "")
        environment["SKANC_OUT"] = output.path
        let run = try ChildProcess.run(
            try ChildProcess.onPath("nvim"),
            ["--headless", "-u", initFile.path, schema.path, "-c", "luafile Tests/Scripts/nvim_readme_setup.lua"],
            environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [String: Any])
        #expect(seen["filetype"] as? String == "skan")
        #expect(seen["clients"] as? [String] == ["skanc"])
        #expect(seen["published"] as? Bool == true)
    }

    @Test func neovimShowsTheDiagnosticWhereItIsAndFixesFormatsHovers() throws {
        let seen = try Self.neovim(Self.typo, hover: "bought", completeAfter: "when ")
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
        let check = try CLI.run(["check", "-"], stdin: Self.typo)
        #expect(check.stderr.contains(":6:49: error: no flag, field or event named 'purchas'"))
        // The quick fix, applied by Neovim in its byte columns, writes the name where the typo was.
        #expect(seen["actions"] as? [String] == ["Replace 'purchas' with 'purchase'"])
        let fixed = Self.typo.replacingOccurrences(of: "when  purchas\n", with: "when  purchase\n")
        #expect(seen["fixed"] as? String == fixed)
        // Formatting through the client gives what `skanc fmt` writes.
        let fmt = try CLI.run(["fmt", "-"], stdin: fixed)
        #expect(fmt.status == 0)
        #expect(seen["formatted"] as? String == fmt.stdout)
        #expect(seen["hover"] as? String == "**bought**: flag, bit 0: set → fine value +1\n\nSet when `purchase`")
        // The flag's own condition reads what is declared before it: the event, not the flag itself.
        #expect(seen["completions"] as? [String] == ["purchase", "hours", "not"])
    }

    @Test func aShippedSchemaWithATypo() throws {
        let shop = try String(
            contentsOf: Paths.packageRoot.appendingPathComponent("Schemas/Shop.skan"), encoding: .utf8)
        let seen = try Self.neovim(
            shop.replacingOccurrences(of: "paymentTier >= medium", with: "paymentTier >= mediun"),
            hover: "field paymentTier", completeAfter: "paymentTier >= ")
        let diagnostics = try #require(seen["diagnostics"] as? [[String: Any]])
        #expect(
            diagnostics.map { $0["message"] as? String } == [
                "field 'paymentTier' has no case named 'mediun'; did you mean 'medium'?"
            ])
        #expect(seen["actions"] as? [String] == ["Replace 'mediun' with 'medium'"])
        // Fixed and formatted through Neovim, it is the shipped schema again, byte for byte.
        #expect(seen["fixed"] as? String == shop)
        #expect(seen["formatted"] as? String == shop)
        #expect(
            seen["hover"] as? String == """
                **paymentTier**: field, bits 1...2 ("Highest purchase tier")

                - `none` = 0 → fine value +0
                - `low` = 1 → fine value +2: "under $5"
                - `medium` = 2 → fine value +4: "$5 to $20"
                - `high` = 3 → fine value +6: "over $20"

                Read by: `coarse`, `lock window 1`
                """)
        #expect(seen["completions"] as? [String] == ["none", "low", "medium", "high"])
    }
}
