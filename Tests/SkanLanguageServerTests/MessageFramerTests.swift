import SkanLanguageServer
import Testing

/// The base protocol's framing: messages come out whole whatever pieces the bytes arrive in; a header that
/// cannot be read stops the stream with a reason.
@Suite struct MessageFramerTests {
    static let bodies = [#"{"jsonrpc":"2.0","method":"a"}"#, #"{"é":"🎉"}"#, "{}"]

    @Test(arguments: [1, 2, 7, 64, 1000])
    func messagesComeOutWholeFromPiecesOfAnySize(_ size: Int) throws {
        let stream = Self.bodies.flatMap { MessageFramer.frame(Array($0.utf8)) }
        var framer = MessageFramer()
        var out: [String] = []
        var index = 0
        while index < stream.count {
            framer.append(stream[index..<min(index + size, stream.count)])
            index += size
            while let body = try framer.nextMessage() { out.append(String(decoding: body, as: UTF8.self)) }
        }
        #expect(out == Self.bodies)
        #expect(!framer.holdsPartialMessage)
    }

    @Test func otherHeadersAreReadPast() throws {
        var framer = MessageFramer()
        framer.append(
            Array("Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: 2\r\n\r\n{}".utf8))
        #expect(try framer.nextMessage() == Array("{}".utf8))
    }

    @Test(arguments: [
        "Content-Type: x\r\n\r\n{}", "Content-Length: two\r\n\r\n{}", "Content-Length: -2\r\n\r\n{}",
        "Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}", "no colon\r\n\r\n{}",
        "Content-Length: 99999999999\r\n\r\n",
    ])
    func anUnreadableHeaderIsRefused(_ stream: String) {
        var framer = MessageFramer()
        framer.append(Array(stream.utf8))
        #expect(throws: MessageFramer.Malformed.self) { try framer.nextMessage() }
    }

    @Test func aHeaderThatNeverEndsIsRefusedAtItsLimit() throws {
        var framer = MessageFramer()
        framer.append([UInt8](repeating: UInt8(ascii: "a"), count: MessageFramer.maximumHeader))
        #expect(try framer.nextMessage() == nil)
        framer.append([UInt8](repeating: UInt8(ascii: "a"), count: 16))
        #expect(throws: MessageFramer.Malformed.self) { try framer.nextMessage() }
    }

    @Test func aTornMessageIsHeld() throws {
        var framer = MessageFramer()
        framer.append(Array("Content-Length: 10\r\n\r\n{}".utf8))
        #expect(try framer.nextMessage() == nil)
        #expect(framer.holdsPartialMessage)
    }
}
