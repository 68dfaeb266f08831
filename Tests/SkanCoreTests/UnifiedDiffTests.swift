import Foundation
import SkanCore
import SkanTestSupport
import Testing

/// The golden files' diff, checked against GNU diff and patch.
@Suite struct UnifiedDiffTests {
    /// Runs `tool` with `arguments` in `directory`; returns the exit status and standard output.
    func run(_ tool: String, _ arguments: [String], in directory: URL) throws -> (Int32, String) {
        let result = try ChildProcess.run(try ChildProcess.onPath(tool), arguments, in: directory)
        return (result.status, result.stdout)
    }

    func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("skanc-diff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func oneChangeReadsExactlyAsGNUDiff() throws {
        let old = (1...20).map { "line \($0)" }.joined(separator: "\n") + "\n"
        let new = old.replacingOccurrences(of: "line 10\n", with: "line ten\nline 10b\n")
            .replacingOccurrences(of: "line 2\n", with: "")
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try old.write(to: directory.appendingPathComponent("old"), atomically: true, encoding: .utf8)
        try new.write(to: directory.appendingPathComponent("new"), atomically: true, encoding: .utf8)
        let (status, gnu) = try run("diff", ["-u", "--label", "old", "--label", "new", "old", "new"], in: directory)
        #expect(status == 1)
        #expect(UnifiedDiff.diff(old, new, oldName: "old", newName: "new") == gnu)
    }

    @Test func patchTurnsTheOldTextIntoTheNewOne() throws {
        var random = SplitMix64(seed: 7)
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for round in 0..<40 {
            let old = (0..<Int.random(in: 0...40, using: &random)).map { _ in
                "l\(Int.random(in: 0...6, using: &random))"
            }
            var new = old
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                let position = Int.random(in: 0...new.count, using: &random)
                if Bool.random(using: &random), position < new.count {
                    new.remove(at: position)
                } else {
                    new.insert("n\(Int.random(in: 0...6, using: &random))", at: position)
                }
            }
            let (oldText, newText) = (old.map { $0 + "\n" }.joined(), new.map { $0 + "\n" }.joined())
            let file = directory.appendingPathComponent("text")
            try oldText.write(to: file, atomically: true, encoding: .utf8)
            let diff = UnifiedDiff.diff(oldText, newText, oldName: "text", newName: "text")
            try diff.write(to: directory.appendingPathComponent("change.diff"), atomically: true, encoding: .utf8)
            let (status, _) = try run("patch", ["-s", "text", "change.diff"], in: directory)
            #expect(status == 0, "round \(round):\n\(diff)")
            #expect(try String(contentsOf: file, encoding: .utf8) == newText, "round \(round):\n\(diff)")
        }
    }
}
