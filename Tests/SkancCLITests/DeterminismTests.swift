import Foundation
import SkanTestSupport
import Testing

/// Output is the same byte for byte in every process. Each `skanc` process hashes with its own random seed,
/// so anything ordered by a dictionary or a set would differ between runs; one process could not see it.
@Suite struct DeterminismTests {
    static let commands: [[String]] = ["Shop", "Subscription", "EventFlags"].flatMap { name in
        [
            ["generate", "Schemas/\(name).skan", "--access-level", "public"],
            ["table", "Schemas/\(name).skan", "--format", "json"],
            ["table", "Schemas/\(name).skan", "--format", "sql"],
            ["table", "Schemas/\(name).skan", "--format", "html"],
        ]
    }

    @Test(arguments: commands)
    func fourProcessesPrintTheSameBytes(_ arguments: [String]) throws {
        let runs = try (0..<4).map { _ in try CLI.run(arguments) }
        #expect(runs[0].status == 0, "\(runs[0].stderr)")
        #expect(!runs[0].stdout.isEmpty)
        for run in runs.dropFirst() {
            #expect(run.stdout == runs[0].stdout, "\(arguments.joined(separator: " "))")
        }
    }

    @Test func theProcessesReallyHashDifferently() throws {
        // The premise of this suite: a Set's order changes from process to process. Swift prints a Set of
        // strings in its hash order, so a little program shows it.
        let script = FileManager.default.temporaryDirectory.appendingPathComponent(
            "skanc-hash-\(UUID().uuidString).swift")
        try #"print(Set((0..<32).map { "k\($0)" }))"#.write(to: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: script) }
        let swift = URL(fileURLWithPath: "/usr/bin/env")
        let orders = try (0..<3).map { _ in try CLI.run(["swift", script.path], executable: swift).stdout }
        #expect(Set(orders).count > 1, "\(orders)")
    }
}
