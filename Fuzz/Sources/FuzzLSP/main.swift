// libFuzzer target: any bytes as what an editor sends `skanc lsp` after `initialize`, cut into reads where the
// input says, framed and handled: no crash, no hang; every answer is a JSON-RPC 2.0 message, and a stream that
// cannot be framed stops (nothing is handled after it). The seeds are whole sessions (open, change with and
// without ranges, hover, definition, references, symbols, formatting, completion, quick fixes, rename), so
// mutations make random edits.
import FuzzSupport
import SkanLanguageServer

@testable import SkanCore

/// One input; a crash, leak or failed check is a finding.
func fuzzLSP(_ input: UnsafeRawBufferPointer) -> Int32 {
    let bytes = Array(input)
    var server = LanguageServer(version: "fuzz")
    _ = server.handle(Array(#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{}}}"#.utf8))
    var framer = MessageFramer()
    let piece = Int(bytes.first ?? 1) % 61 + 1
    var offset = 1
    while offset < bytes.count {
        framer.append(bytes[offset..<min(offset + piece, bytes.count)])
        offset += piece
        do {
            while let body = try framer.nextMessage() {
                for answer in server.handle(body) { check(answer) }
                if server.exitStatus != nil { return 0 }
            }
        } catch {
            return 0
        }
    }
    return 0
}

/// An answer is one JSON object with `"jsonrpc": "2.0"`.
func check(_ answer: [UInt8]) {
    var reader = JSONReader(bytes: answer, maximumDepth: 64, tooDeep: "deep")
    guard let document = try? reader.document(), case .string("2.0")? = document["jsonrpc"] else {
        fatalError("an answer that is not JSON-RPC: \(String(decoding: answer.prefix(200), as: UTF8.self))")
    }
}

runLibFuzzer { data, count in fuzzLSP(fuzzInput(data, count)) }
