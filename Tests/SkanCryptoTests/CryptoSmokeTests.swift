import Foundation
import Testing

@testable import SkanCrypto

@Suite struct CryptoSmokeTests {
    @Test func sha256() {
        #expect(
            SHA256.hash(Array("abc".utf8)).map { String(format: "%02x", $0) }.joined()
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func applesTwoPointTwoExample() throws {
        let key = try #require(
            ECDSAPublicKey(
                der: [UInt8](
                    Data(
                        base64Encoded:
                            "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEWdp8GPcGqmhgzEFj9Z2nSpQVddayaPe4FMzqM9wib1+aHaaIzoHoLN9zW4K8y4SPykE3YVK3sVqW6Af0lfx3gg=="
                    )!)))
        let message = [
            "2.2", "com.example", "42", "525463029", "6aafb7a5-0170-41b5-bbe4-fe71dedf1e28", "true", "1234567891", "1",
        ]
        .joined(separator: "\u{2063}")
        let signature = [UInt8](
            Data(
                base64Encoded:
                    "MEYCIQDTuQ1Z4Tpy9D3aEKbxLl5J5iKiTumcqZikuY/AOD2U7QIhAJAaiAv89AoquHXJffcieEQXdWHpcV8ZgbKN0EwV9/sY")!
        )
        #expect(key.isValidSignature(der: signature, for: Array(message.utf8)))
        #expect(
            !key.isValidSignature(der: signature, for: Array(message.replacingOccurrences(of: "42", with: "43").utf8)))
    }
}
