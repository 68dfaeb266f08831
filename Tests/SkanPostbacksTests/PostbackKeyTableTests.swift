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

    /// `"name":` of the guessed key is found where it stands, whole, and nowhere it does not: not for
    /// another key, a name one byte longer or shorter, a missing colon, or at the buffer's very end.
    @Test func aGuessedKeyIsCheckedByItsWholeQuotedName() {
        func quoted(_ key: PostbackKey, in text: String, at index: Int = 1) -> Int? {
            Array(text.utf8).withUnsafeBufferPointer { table.quotedName(key, at: index, in: $0) }
        }
        for key in PostbackKey.allCases {
            let name = String(decoding: key.bytes, as: UTF8.self)
            #expect(quoted(key, in: "{\"\(name)\":1}") == name.utf8.count + 4, "\(name)")
            #expect(quoted(key, in: "{\"\(name)\":") == name.utf8.count + 4, "\(name) at the end")
            #expect(quoted(key, in: "{\"\(name)\":", at: 2) == nil)
            #expect(quoted(key, in: "{\"\(name)\"") == nil, "\(name) without its colon")
            #expect(quoted(key, in: "{\"\(name)x\":1}") == nil && quoted(key, in: "{\"\(name.dropLast())\":1}") == nil)
            #expect(quoted(key, in: "{\"\(name)\" :1}") == nil, "a space is left to the general reading")
            for other in PostbackKey.allCases where other != key {
                #expect(quoted(other, in: "{\"\(name)\":1}") == nil, "\(other) for \(name)")
            }
        }
    }
}
