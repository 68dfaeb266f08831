import Foundation
import SkanTestSupport
import Testing

/// `skanc lsp` driven end to end by pytest-lsp (PyPI), a client built on pygls that also checks every answer
/// against the capabilities Visual Studio Code declares: Tests/Scripts/lsp, each feature with its answer
/// written out.
@Suite struct PytestLSPTests {
    @Test func everyFeatureThroughPytestLSP() throws {
        let probe = try CLI.run(
            ["python3", "-c", "import pytest_lsp"], executable: URL(fileURLWithPath: "/usr/bin/env"))
        try #require(
            probe.status == 0,
            "pytest-lsp is not installed; install it with `python3 -m pip install pytest-lsp`, or run `bash .ci/run`")
        var environment = ProcessInfo.processInfo.environment
        environment["SKANC"] = CLI.executable.path
        // No cache or bytecode in the checkout: the run writes nothing but its report.
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        let run = try ChildProcess.run(
            try ChildProcess.onPath("python3"),
            [
                "-m", "pytest", "-c", "Tests/Scripts/lsp/pytest.ini", "-p", "no:cacheprovider", "-q",
                "Tests/Scripts/lsp",
            ],
            environment: environment)
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        // Every test ran: none skipped, none deselected.
        #expect(run.stdout.contains("8 passed"), "\(run.stdout)")
    }
}
