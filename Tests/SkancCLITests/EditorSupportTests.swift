import Foundation
import SkanTestSupport
import Testing

/// Tests/Scripts/editors, run by pytest: `skanc lsp` driven end to end by pytest-lsp (PyPI), a client built on
/// pygls that also checks every answer against the capabilities Visual Studio Code declares, each feature with
/// its answer written out; and the TextMate grammar read by textmate-grammar-python on every shipped schema.
@Suite struct EditorSupportTests {
    @Test func languageServerAndGrammarThroughPythonClients() throws {
        let probe = try CLI.run(
            ["python3", "-c", "import pytest_lsp, textmate_grammar"], executable: URL(fileURLWithPath: "/usr/bin/env"))
        try #require(
            probe.status == 0,
            """
            pytest-lsp or textmate-grammar-python is missing; install them with \
            `python3 -m pip install pytest-lsp textmate-grammar-python`, or run `bash .ci/run`
            """)
        var environment = ProcessInfo.processInfo.environment
        environment["SKANC"] = CLI.executable.path
        // No cache or bytecode in the checkout: the run writes nothing but its report.
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        let run = try ChildProcess.run(
            try ChildProcess.onPath("python3"),
            [
                "-m", "pytest", "-c", "Tests/Scripts/editors/pytest.ini", "-p", "no:cacheprovider", "-q",
                "Tests/Scripts/editors",
            ],
            environment: environment)
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        // Every test ran and passed: the summary names nothing but passes (no skips, no deselections).
        let summary = run.stdout.split(separator: "\n").last { $0.contains(" in ") } ?? ""
        #expect(summary.wholeMatch(of: /\d+ passed in [0-9.]+s( \(.*\))?/) != nil, "\(run.stdout)")
    }
}
