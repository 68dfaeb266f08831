import SkanCompiler
import Testing

@testable import SkanPostbacks

@Suite struct ByteBufferTests {
    func text(_ buffer: ByteBuffer) -> String { String(decoding: buffer.bytes, as: UTF8.self) }

    @Test func integersInDecimal() {
        for value in [0, 7, 9, 10, 99, 100, 12345, 999_999_999, 1_000_000_000, Int.max, -1, -10, Int.min] {
            let buffer = ByteBuffer(capacity: 16)
            buffer.append(decimal: value)
            #expect(text(buffer) == String(value))
        }
    }

    /// Pieces of every length up to 40 bytes, appended after every offset, come out whole.
    @Test func piecesOfEveryLength() {
        let source = Array("abcdefghijklmnopqrstuvwxyz0123456789ABCD".utf8)
        for offset in 0..<9 {
            for length in 0...source.count {
                let buffer = ByteBuffer(capacity: 16)
                buffer.append(String(repeating: "-", count: offset))
                source.withUnsafeBufferPointer { buffer.append(UnsafeBufferPointer(rebasing: $0[0..<length])) }
                buffer.append(UInt8(ascii: "|"))
                #expect(
                    text(buffer) == String(repeating: "-", count: offset)
                        + String(decoding: source[0..<length], as: UTF8.self) + "|")
            }
        }
    }
}
