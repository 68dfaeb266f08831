import Foundation
import SkanCore
import SkanFiles
import Testing

@Suite struct InputFileTests {
    /// What `-` would read: no path here is `-`.
    static let noInput: Int32 = -1

    static func temporaryFile(_ bytes: [UInt8]) throws -> String {
        let path = NSTemporaryDirectory() + "skanc-input-\(UUID().uuidString)"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func readsARegularFileWholeOrBounded() throws {
        let path = try Self.temporaryFile(Array("schema Shop\n".utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(
            try InputFile.contents(of: path, expecting: "a .skan file", standardInput: Self.noInput)
                == Array("schema Shop\n".utf8))
        #expect(
            try InputFile.contents(of: path, expecting: "a .skan file", limit: 6, standardInput: Self.noInput)
                == Array("schema".utf8))
        #expect(try InputFile(path, expecting: "x", standardInput: Self.noInput).regularFileSize == 12)
    }

    @Test func readsAPipeAsAFile() throws {
        let pipe = Pipe()
        pipe.fileHandleForWriting.write(Data("a\nb\n".utf8))
        try pipe.fileHandleForWriting.close()
        let path = "/dev/fd/\(pipe.fileHandleForReading.fileDescriptor)"
        let file = try InputFile(path, expecting: "a journey", standardInput: Self.noInput)
        #expect(file.regularFileSize == nil)
        #expect(try file.contents() == Array("a\nb\n".utf8))
    }

    @Test func everyFailureIsAFileUnreadableDiagnostic() throws {
        let missing = #expect(throws: InputFileError.self) {
            try InputFile("/nonexistent/skanc", expecting: "a .skan file", standardInput: Self.noInput)
        }
        #expect(missing?.reason == "no such file; check the path")
        #expect(missing?.diagnostic.code == .fileUnreadable)
        let directory = #expect(throws: InputFileError.self) {
            try InputFile(NSTemporaryDirectory(), expecting: "a .skan file", standardInput: Self.noInput)
        }
        #expect(directory?.reason == "is a directory; name a .skan file")
    }

    /// `/proc/self/mem` opens but every read at offset 0 fails: an error, never an empty file.
    @Test func anErrorWhileReadingIsNotTheEndOfTheFile() throws {
        guard FileManager.default.fileExists(atPath: "/proc/self/mem") else { return }
        let stopped = #expect(throws: InputFileError.self) {
            try InputFile.contents(of: "/proc/self/mem", expecting: "a file", standardInput: Self.noInput)
        }
        #expect(stopped?.reason.hasPrefix("reading stopped (") == true)
    }
}
