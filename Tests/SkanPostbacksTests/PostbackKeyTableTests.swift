import SkanCompiler
import Testing

@testable import SkanPostbacks

@Suite struct PostbackKeyTableTests {
    let table = PostbackKeyTable()

    /// Looks `text` up as it would sit in a line: between other bytes, or at the very end of the buffer
    /// (where a short key cannot be read as a whole word).
    func match(_ text: String, atEnd: Bool = false) -> PostbackKey? {
        let bytes =
            atEnd
            ? Array("{\"".utf8) + Array(text.utf8)
            : Array("{\"".utf8) + Array(text.utf8) + Array("\":1,\"more\":2}".utf8)
        return bytes.withUnsafeBufferPointer { table.match($0, 2, 2 + text.utf8.count) }
    }

    @Test func everyKeyIsFoundWhereverItSits() {
        for key in PostbackKey.allCases {
            let name = String(decoding: key.bytes, as: UTF8.self)
            #expect(match(name) == key, "\(name)")
            #expect(match(name, atEnd: true) == key, "\(name) at the end")
        }
    }

    @Test func nearMissesAreNotKeys() {
        for key in PostbackKey.allCases {
            let name = String(decoding: key.bytes, as: UTF8.self)
            // Each byte changed in turn, one byte more, one byte less: none is a key.
            for index in name.utf8.indices {
                var bytes = Array(name.utf8)
                bytes[name.utf8.distance(from: name.utf8.startIndex, to: index)] ^= 0x20
                let changed = String(decoding: bytes, as: UTF8.self)
                #expect(match(changed) == nil, "\(changed)")
            }
            #expect(match(name + "x") == nil && match(String(name.dropLast())) == nil, "\(name)")
        }
        #expect(match("") == nil)
        #expect(match(String(repeating: "a", count: 40)) == nil)
    }
}
