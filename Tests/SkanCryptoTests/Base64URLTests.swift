import Foundation
import SkanCore
import SkanTestSupport
import Testing

@testable import SkanCrypto

@Suite struct Base64URLTests {
    func decode(_ text: String) -> [UInt8]? {
        let bytes = Array(text.utf8)
        var output: [UInt8] = [9, 9, 9]  // cleared by the decoder
        let valid = bytes.withUnsafeBufferPointer {
            Base64URL.decode($0, 0, bytes.count, into: &output, table: Base64URL.table)
        }
        return valid ? output : nil
    }

    /// Every length from 0 to 70 bytes, with and without padding, against Foundation's encoder.
    @Test func decodesWhatFoundationEncodes() {
        var generator = SplitMix64(seed: 7)
        for length in 0...70 {
            let data = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let padded = Data(data).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(
                of: "/", with: "_")
            #expect(decode(padded) == data, "\(length) bytes, padded")
            #expect(decode(padded.replacingOccurrences(of: "=", with: "")) == data, "\(length) bytes, unpadded")
        }
    }

    @Test func rejectsWhatIsNotBase64URL() {
        #expect(decode("ab+c") == nil)  // standard base64, not the URL alphabet
        #expect(decode("ab/c") == nil)
        #expect(decode("abcde") == nil)  // a lone last character makes no byte
        #expect(decode("ab c") == nil)
        #expect(decode("abc\u{E9}") == nil)
        #expect(decode("") == [])
    }
}
