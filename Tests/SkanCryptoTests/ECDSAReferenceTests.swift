import Foundation
import SkanTestSupport
import Testing

@testable import SkanCrypto

/// ECDSA verification against outside references: NIST's CAVP SigVer records, and keys, messages and
/// signatures made by OpenSSL through Python's `cryptography` package (installed by .ci/run).
@Suite struct ECDSAReferenceTests {
    static func hex(_ text: Substring) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }

    @Test func nistSigVerRecords() throws {
        let text = try String(
            contentsOf: Paths.packageRoot.appendingPathComponent("Tests/Fixtures/NIST/SigVer-P192-P256-SHA256.rsp"),
            encoding: .utf8)
        var curve = EllipticCurve.p192
        var record: [String: Substring] = [:]
        var (checked, passing) = (0, 0)
        for line in text.split(whereSeparator: \.isNewline) {  // CRLF, as NIST writes it
            if line.hasPrefix("[P-192") { curve = .p192 }
            if line.hasPrefix("[P-256") { curve = .p256 }
            let parts = line.split(separator: " = ", maxSplits: 1)
            guard parts.count == 2 else { continue }
            record[String(parts[0])] = parts[1]
            guard parts[0] == "Result" else { continue }
            let expected = parts[1].hasPrefix("P")
            let qx = try #require(UInt256(bigEndian: Self.hex(record["Qx"]!)))
            let qy = try #require(UInt256(bigEndian: Self.hex(record["Qy"]!)))
            let r = try #require(UInt256(bigEndian: Self.hex(record["R"]!)))
            let s = try #require(UInt256(bigEndian: Self.hex(record["S"]!)))
            let message = Self.hex(record["Msg"]!)
            let verified =
                ECDSAPublicKey(curve: curve, x: qx, y: qy)?.isValidSignature(r: r, s: s, for: message) ?? false
            #expect(verified == expected, "\(curve.name) \(record["Msg"]!.prefix(16))…: \(parts[1])")
            checked += 1
            if expected { passing += 1 }
        }
        #expect(checked == 30 && passing > 0)
    }

    /// Python's `cryptography` (OpenSSL), which .ci/run installs.
    static func openSSLCases(count: Int, seed: Int) throws -> [[String: Any]] {
        let result = try ChildProcess.run(
            try ChildProcess.onPath("python3"),
            [Paths.file("Tests/Scripts/ecdsa_cases.py").path, String(count), String(seed)])
        try #require(
            result.status == 0,
            "Python's cryptography package is missing; install it with `python3 -m pip install cryptography`, or run `bash .ci/run`"
        )
        let output = Data(result.stdout.utf8)
        return try output.split(separator: 0x0A).map {
            try #require(try JSONSerialization.jsonObject(with: Data($0)) as? [String: Any])
        }
    }

    /// Apple's SKAdNetwork keys (StoreKit's release notes), each with a table, as the postbacks engine keeps them.
    static let appleP192 = ECDSAPublicKey(
        der: [UInt8](
            Data(
                base64Encoded:
                    "MEkwEwYHKoZIzj0CAQYIKoZIzj0DAQEDMgAEMyHD625uvsmGq4C43cQ9BnfN2xslVT5V1nOmAMP6qaRRUll3PB1JYmgSm+62sosG"
            )!))!.withTable()
    static let appleP256 = ECDSAPublicKey(
        der: [UInt8](
            Data(
                base64Encoded:
                    "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEWdp8GPcGqmhgzEFj9Z2nSpQVddayaPe4FMzqM9wib1+aHaaIzoHoLN9zW4K8y4SPykE3YVK3sVqW6Af0lfx3gg=="
            )!))!.withTable()

    @Test func agreesWithOpenSSLOnThousandsOfSignatures() throws {
        let cases = try Self.openSSLCases(count: 170, seed: 7)
        #expect(cases.count > 2000)
        var (valid, invalid) = (0, 0)
        for item in cases {
            let key = try #require(ECDSAPublicKey(der: Self.hex(Substring(item["key"] as! String))))
            let padded = { (text: String) in text.count % 2 == 0 ? text : "0" + text }
            let r = try #require(UInt256(bigEndian: Self.hex(Substring(padded(item["r"] as! String)))))
            let s = try #require(UInt256(bigEndian: Self.hex(Substring(padded(item["s"] as! String)))))
            let expected = item["valid"] as! Bool
            let message = Self.hex(Substring(item["message"] as! String))
            #expect(key.isValidSignature(r: r, s: s, for: message) == expected, "\(item)")
            // Among several keys (the work shared between them), behind Apple's key with its table: only the
            // signer matches.
            let apple = key.curve === EllipticCurve.p256 ? Self.appleP256 : Self.appleP192
            let signer = ECDSAPublicKey.signer(of: SHA256.hash(message), r: r, s: s, among: [apple, key])
            #expect(signer == (expected ? 1 : nil), "\(item)")
            if expected { valid += 1 } else { invalid += 1 }
        }
        #expect(valid > 600 && invalid > 1000)
    }

    @Test func keysOffTheCurveAndMalformedKeysAreRefused() throws {
        let apple = try #require(
            Data(
                base64Encoded:
                    "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEWdp8GPcGqmhgzEFj9Z2nSpQVddayaPe4FMzqM9wib1+aHaaIzoHoLN9zW4K8y4SPykE3YVK3sVqW6Af0lfx3gg=="
            ))
        let der = [UInt8](apple)
        #expect(ECDSAPublicKey(der: der) != nil)
        var offCurve = der
        offCurve[der.count - 1] ^= 1  // y changed: not on the curve
        #expect(ECDSAPublicKey(der: offCurve) == nil)
        var compressed = der
        compressed[26] = 0x02  // not the uncompressed form
        #expect(ECDSAPublicKey(der: compressed) == nil)
        #expect(ECDSAPublicKey(der: der + [0]) == nil)  // trailing byte
        #expect(ECDSAPublicKey(der: Array(der.dropLast())) == nil)  // truncated
        var otherCurve = der
        otherCurve[24] = 0x08  // an OID of another curve
        #expect(ECDSAPublicKey(der: otherCurve) == nil)
    }

    @Test func malformedDERSignaturesAreRefused() {
        let r: [UInt8] = [0x02, 0x01, 0x05]
        let s: [UInt8] = [0x02, 0x01, 0x07]
        #expect(
            DER.signature([0x30, 0x06] + r + s)! == (
                UInt256(l0: 5, l1: 0, l2: 0, l3: 0), UInt256(l0: 7, l1: 0, l2: 0, l3: 0)
            ))
        let malformed: [(String, [UInt8])] = [
            ("empty", []),
            ("not a sequence", [0x31, 0x06] + r + s),
            ("length too long", [0x30, 0x07] + r + s),
            ("length too short", [0x30, 0x05] + r + s),
            ("long form for a short length", [0x30, 0x81, 0x06] + r + s),
            ("trailing byte", [0x30, 0x06] + r + s + [0x00]),
            ("trailing element", [0x30, 0x09] + r + s + [0x02, 0x01, 0x01]),
            ("one integer", [0x30, 0x03] + r),
            ("negative r", [0x30, 0x06, 0x02, 0x01, 0x85] + s),
            ("zero-padded r", [0x30, 0x07, 0x02, 0x02, 0x00, 0x05] + s),
            ("empty r", [0x30, 0x05, 0x02, 0x00] + s),
            ("r not an integer", [0x30, 0x06, 0x04, 0x01, 0x05] + s),
            ("r of 33 bytes", [0x30, 0x26, 0x02, 0x21, 0x01] + [UInt8](repeating: 0, count: 32) + s),
        ]
        for (name, bytes) in malformed { #expect(DER.signature(bytes) == nil, "\(name)") }
        // A zero byte is needed before a high bit: 0x00 0x85 is the minimal 133.
        #expect(DER.signature([0x30, 0x07, 0x02, 0x02, 0x00, 0x85] + s)?.r == UInt256(l0: 0x85, l1: 0, l2: 0, l3: 0))
    }
}
