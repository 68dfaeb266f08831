import Foundation
import SkanFiles
import Testing

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

@Suite struct DurableFilesTests {
    /// A new empty folder of this test's own.
    static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "skanc-durable-\(UUID().uuidString)"
        try DurableFiles.makeDirectory(path)
        return path
    }

    @Test func appendsSyncsAndCutsBackALog() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/log.jsonl"
        let log = try #require(try OpenFile.createForAppending(path))
        #expect(log.append(Array("{\"a\":1}\n".utf8)) == nil)
        #expect(log.append(Array("{\"b\":2}\n".utf8)) == nil)
        #expect(log.sync() == nil)
        #expect(try DurableFiles.contents(path) == Array("{\"a\":1}\n{\"b\":2}\n".utf8))
        #expect(log.cut(to: 8))
        #expect(log.append(Array("{\"c\":3}\n".utf8)) == nil)
        #expect(try DurableFiles.contents(path) == Array("{\"a\":1}\n{\"c\":3}\n".utf8))
        #expect(try OpenFile.openForReading(path).read(4, at: 8) == Array("{\"c\"".utf8))
        #expect(log.read(4, at: 8) == nil, "a log is opened for appending only")
        #expect(log.linkCount == 1)
        #expect(log.identity == FileIdentity(path: path))
        DurableFiles.remove(path)
        #expect(log.linkCount == 0)
    }

    @Test func aTakenNameIsNeverWrittenOver() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/taken.jsonl"
        try DurableFiles.write(Array("kept\n".utf8), to: path)
        #expect(try OpenFile.createForAppending(path) == nil)
        // A link planted at a new segment's name is refused, its target untouched.
        let target = folder + "/target"
        try DurableFiles.write(Array("target\n".utf8), to: target)
        #expect(symlink(target, folder + "/planted.jsonl") == 0)
        #expect(try OpenFile.createForAppending(folder + "/planted.jsonl") == nil)
        #expect(try DurableFiles.contents(target) == Array("target\n".utf8))
        #expect(try DurableFiles.contents(path) == Array("kept\n".utf8))
    }

    @Test func replacesATailAndRewritesAFileWhole() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/times"
        try DurableFiles.write(Array("1\n2\n3\n".utf8), to: path)
        try DurableFiles.replaceTail(of: path, from: 4, with: Array("2\n2\n".utf8))
        #expect(try DurableFiles.contents(path) == Array("1\n2\n2\n2\n".utf8))
        try DurableFiles.replaceTail(of: path, from: 2)
        #expect(try DurableFiles.contents(path) == Array("1\n".utf8))
        try DurableFiles.write(Array("9\n".utf8), to: path)
        #expect(try DurableFiles.contents(path) == Array("9\n".utf8))
        #expect(DurableFiles.syncDirectory(folder) == nil)
        #expect(DurableFiles.entries(of: folder) == ["times"])
        #expect(try DurableFiles.makeDirectory(folder) == false)
    }

    @Test func aFIFOIsNeitherASegmentNorRead() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fifo = folder + "/fifo.jsonl"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(!DurableFiles.isRegularFile(fifo))
        // Opened without waiting for a writer, refused without a read.
        let refused = #expect(throws: FileFailure.self) { try DurableFiles.contents(fifo) }
        #expect(
            refused?.description == "cannot read \(fifo): is not a regular file (a FIFO or device); a file must be one")
    }

    @Test func aLockIsHeldByOneOpeningAtATime() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = try OpenFile.openForUpdate(folder + "/.lock-a")
        #expect(try first.lockExclusively())
        do {
            let second = try OpenFile.openForUpdate(folder + "/.lock-a")
            #expect(try !second.lockExclusively())
        }
        #expect(try OpenFile.openForUpdate(folder + "/.lock-b").lockExclusively())
    }

    @Test func failuresNameTheFileAndTheReason() throws {
        let missing = #expect(throws: FileFailure.self) { try DurableFiles.contents("/nonexistent/skanc/log") }
        #expect(missing?.description == "cannot read /nonexistent/skanc/log: no such file; check the path")
        let folder = #expect(throws: FileFailure.self) { try DurableFiles.makeDirectory("/nonexistent/skanc/x") }
        #expect(folder?.description.hasPrefix("cannot create the folder /nonexistent/skanc/x (") == true)
        #expect(DurableFiles.availableBytes(at: NSTemporaryDirectory()).map { $0 > 0 } == true)
    }
}
