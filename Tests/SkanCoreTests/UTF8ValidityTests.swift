import SkanCore
import Testing

/// The receiver's UTF-8 check agrees with the standard library's decoder on every case that matters: ASCII at
/// every offset of its eight-byte steps, and each kind of malformed sequence.
@Suite struct UTF8ValidityTests {
    @Test func validTextAtEveryOffsetIsValid() {
        for prefix in 0..<17 {
            let text = String(repeating: "a", count: prefix) + "é€😀 end"
            #expect(UTF8Validity.isValid(Array(text.utf8)), "\(prefix)")
        }
        #expect(UTF8Validity.isValid([]))
    }

    @Test(
        arguments: [
            [0xFF, 0xFE], [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82],
            [0x80], [0xC3],
        ] as [[UInt8]])
    func malformedSequencesAreInvalid(_ sequence: [UInt8]) {
        for prefix in [0, 3, 8, 13] {
            let bytes = Array(repeating: UInt8(ascii: "a"), count: prefix) + sequence + Array("tail".utf8)
            #expect(!UTF8Validity.isValid(bytes), "\(sequence) after \(prefix)")
            #expect(String(validatingUTF8Bytes: bytes) == nil)
        }
    }
}

extension String {
    /// The standard library's own verdict, for comparison.
    fileprivate init?(validatingUTF8Bytes bytes: [UInt8]) {
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        var scalars = String.UnicodeScalarView()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): scalars.append(scalar)
            case .emptyInput:
                self = String(scalars)
                return
            case .error: return nil
            }
        }
    }
}
