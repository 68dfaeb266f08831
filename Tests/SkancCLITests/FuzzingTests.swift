import Foundation
import Testing

/// Builds the libFuzzer targets (schema pipeline, postback reader, generated decoders) with AddressSanitizer
/// and runs each for a bounded time: SKANC_FUZZ_SECONDS per target (default 30; 0 skips the run). Fails on
/// any crash, leak or timeout; prints executions and time per target.
@Suite struct FuzzingTests {
    @Test func everyFuzzTargetRunsClean() throws {
        let seconds = Int(ProcessInfo.processInfo.environment["SKANC_FUZZ_SECONDS"] ?? "") ?? 30
        guard seconds > 0 else {
            print("fuzzing skipped: SKANC_FUZZ_SECONDS=0")
            return
        }
        let result = try CLI.run(["Fuzz/run.sh", String(seconds)], executable: URL(fileURLWithPath: "/usr/bin/env"), prefix: ["bash"])
        print(result.stdout, terminator: "")
        #expect(result.status == 0, "\(result.stderr)")
        let figures = result.stdout.split(separator: "\n").filter { $0.hasPrefix("fuzz ") }
        #expect(figures.count == 3)
        for line in figures {
            let runs = line.split(separator: " ").dropFirst(3).first.flatMap { Int($0) } ?? 0
            #expect(runs > 0, "\(line)")
        }
    }
}
