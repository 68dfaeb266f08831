import Foundation
import Testing

/// Files are opened, created and renamed in one place: SkanFiles (`InputFile`, `FileOutput`, `FileStream`,
/// `DurableFiles`, `OpenFile`). A command, the plugin's tool or the receiver that called the C library itself
/// would get its own answer to a FIFO, a link, a full disk or a torn write.
@Suite struct IOLayerTests {
    /// The C library's calls that open, create or rename a file by its path.
    static let fileCalls = ["open", "openat", "creat", "rename", "renameat", "mkstemp", "fopen", "freopen"]

    /// Whether `line` calls one of `fileCalls` itself: the name and `(`, not part of a longer name or a method
    /// (`context.open(`), nor a declaration (`func open(`).
    static func callsFileFunction(_ line: Substring) -> Bool {
        let bytes = Array(line.utf8)
        for call in fileCalls {
            let pattern = Array((call + "(").utf8)
            var start = 0
            while start + pattern.count <= bytes.count {
                if bytes[start..<start + pattern.count].elementsEqual(pattern) {
                    let before = start > 0 ? bytes[start - 1] : UInt8(ascii: " ")
                    let partOfName =
                        before == UInt8(ascii: ".") || before == UInt8(ascii: "_")
                        || (before >= 0x30 && before <= 0x39) || (before | 0x20 >= 0x61 && before | 0x20 <= 0x7A)
                    if !partOfName && !line.contains("func \(call)(") { return true }
                }
                start += 1
            }
        }
        return false
    }

    @Test func onlySkanFilesOpensOrRenamesFiles() throws {
        let files = try PortabilityTests.swiftFiles(under: "Sources")
            .filter { !$0.name.hasPrefix("Sources/SkanFiles/") }
        #expect(files.count > 100)
        var calls: [String] = []
        for file in files {
            for (number, line) in String(file.source.code).split(separator: "\n", omittingEmptySubsequences: false)
                .enumerated()
            where Self.callsFileFunction(line) {
                calls.append("\(file.name):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(calls.isEmpty, "open or rename files through SkanFiles:\n\(calls.joined(separator: "\n"))")
    }

    @Test func theCheckSeesACallAndNotAMethod() {
        #expect(Self.callsFileFunction("let fd = open(path, O_RDONLY)"))
        #expect(Self.callsFileFunction("guard rename(a, b) == 0"))
        #expect(!Self.callsFileFunction("try context.open(path, expecting: x)"))
        #expect(!Self.callsFileFunction("let file = try OpenFile.openForReading(path)"))
        #expect(!Self.callsFileFunction("reopen(x)"))
        #expect(!Self.callsFileFunction("    func open(_ path: String) -> InputFile"))
    }
}
