import Foundation
import SkanCompiler
import SkanTestSupport
import Testing

@testable import SkanPostbacks

/// Apple's published postbacks verify with Apple's keys, and no byte of a signed field or of a signature
/// can change without the signature failing.
@Suite struct SignatureTests {
    static func examples() throws -> [String] {
        try String(
            contentsOf: Paths.packageRoot.appendingPathComponent("Tests/Fixtures/apple-examples.jsonl"), encoding: .utf8
        ).split(separator: "\n").map(String.init)
    }

    /// The signature column and status of each line, verified.
    static func outcomes(_ lines: [String], allowDevelopment: Bool = false) throws -> [(
        signature: String, status: String
    )] {
        let (rows, _) = readPostbacks(
            Array(lines.joined(separator: "\n").utf8), schema: try shippedSchema("Shop"),
            verification: PostbackVerification(allowDevelopment: allowDevelopment))
        return rows.dropFirst().map { row in
            let cells = row.split(separator: ",", omittingEmptySubsequences: false)
            return (String(cells[2]), String(cells[1]))
        }
    }

    @Test func applesExamplesVerify() throws {
        let outcomes = try Self.outcomes(try Self.examples())
        #expect(
            outcomes.map { $0.signature } == [
                "verified", "verified", "verified", "verified", "verified", "development",
            ])
        // A development signature is genuine but from a test device: refused unless allowed.
        #expect(outcomes[5].status == "bad-signature")
        #expect(try Self.outcomes([try Self.examples()[5]], allowDevelopment: true)[0].status == "ok")
    }

    /// Apple lists `country-code` among the SKAdNetwork 4.0 parameters that depend on the postback data tier,
    /// outside the signature: Apple's signed 4.0 examples with it added still verify and decode, and the
    /// `country_code` column holds it. A country code that is not two letters is `wrong-type`, and not shown.
    @Test func countryCodeOnSKAdNetwork4VerifiesAndDecodes() throws {
        let fourPointZero = try Self.examples().filter { $0.contains(#""version":"4.0""#) }
        #expect(fourPointZero.count == 2)
        let withCountry = fourPointZero.map { $0.replacingOccurrences(of: "{", with: #"{"country-code":"US","#) }
        let (rows, _) = readPostbacks(
            Array(withCountry.joined(separator: "\n").utf8), schema: try shippedSchema("Shop"),
            verification: PostbackVerification())
        let (plainRows, _) = readPostbacks(
            Array(fourPointZero.joined(separator: "\n").utf8), schema: try shippedSchema("Shop"),
            verification: PostbackVerification())
        let header = rows[0].split(separator: ",").map(String.init)
        let country = try #require(header.firstIndex(of: "country_code"))
        for (row, plain) in zip(rows.dropFirst(), plainRows.dropFirst()) {
            var cells = row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            #expect(cells[2] == "verified", "\(row)")
            #expect(cells[country] == "US", "\(row)")
            // Everything else is what the line without a country gives (its own fine value's status included).
            cells[country] = ""
            #expect(cells.joined(separator: ",") == plain)
        }
        for bad in [#""USA""#, #""U""#, #""U1""#, "840", #""\u00dcS""#] {
            let line = fourPointZero[0].replacingOccurrences(of: "{", with: #"{"country-code":"# + bad + ",")
            let (badRows, _) = readPostbacks(
                Array(line.utf8), schema: try shippedSchema("Shop"), verification: PostbackVerification())
            let cells = badRows[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            #expect(cells[1] == "wrong-type", "\(bad)")
            #expect(cells[country] == "", "\(bad)")
        }
        // An escaped code is read after its escapes: "\u0055S" is "US".
        let escaped = fourPointZero[0].replacingOccurrences(of: "{", with: #"{"country-code":"\u0055S","#)
        let (escapedRows, _) = readPostbacks(
            Array(escaped.utf8), schema: try shippedSchema("Shop"), verification: PostbackVerification())
        #expect(
            escapedRows[1].split(separator: ",", omittingEmptySubsequences: false)[1]
                == plainRows[1].split(separator: ",", omittingEmptySubsequences: false)[1])
    }

    @Test func everySignedFieldAndSignatureByteMatters() throws {
        // Outside the signature: the values, and an AdAttributionKit stanza's interaction and country.
        let unsigned: Set<String> = [
            "conversion-value", "coarse-conversion-value", "ad-interaction-type", "country-code",
        ]
        var tampered: [String] = []
        for line in try Self.examples() {
            for match in line.matches(of: #/"([a-z-]+)":("[^"]*"|-?[0-9]+|true|false)/#) {
                let (key, value) = (String(match.1), String(match.2))
                guard !unsigned.contains(key) else { continue }
                let changed: [String]
                switch value {
                case "true": changed = ["false"]
                case "false": changed = ["true"]
                case _ where key == "attribution-signature":
                    // One bit of a byte in the middle of the DER signature.
                    var der = try #require(Data(base64Encoded: String(value.dropFirst().dropLast())))
                    der[der.count / 2] ^= 0x01
                    changed = ["\"" + der.base64EncodedString() + "\""]
                case _ where key == "jws-string":
                    // One character in each of header, payload and signature.
                    let parts = value.dropFirst().dropLast().split(separator: ".").map(String.init)
                    changed = (0..<3).map { index in
                        var part = Array(parts[index])
                        part[part.count / 2] = part[part.count / 2] == "A" ? "B" : "A"
                        var copy = parts
                        copy[index] = String(part)
                        return "\"" + copy.joined(separator: ".") + "\""
                    }
                case _ where value.hasPrefix("\""): changed = [String(value.dropLast()) + "x\""]
                default: changed = [String(Int(value)! + 1)]
                }
                for replacement in changed {
                    tampered.append(
                        line.replacingOccurrences(of: "\"\(key)\":\(value)", with: "\"\(key)\":\(replacement)"))
                }
            }
        }
        #expect(tampered.count >= 50)
        let outcomes = try Self.outcomes(tampered, allowDevelopment: true)
        for (line, outcome) in zip(tampered, outcomes) {
            #expect(["invalid", "unknown-key", "unsupported"].contains(outcome.signature), "\(outcome): \(line)")
            #expect(outcome.status != "ok", "\(line)")
        }
    }

    @Test func theValuesAreNotSigned() throws {
        // Apple signs neither conversion-value nor coarse-conversion-value: changing them keeps the signature.
        let line = try Self.examples()[0].replacingOccurrences(
            of: "\"conversion-value\":20", with: "\"conversion-value\":21")
        #expect(try Self.outcomes([line])[0].signature == "verified")
    }

    @Test func missingUnknownAndUnsupported() throws {
        let apple = try Self.examples()
        let withoutSignature = apple[2].replacing(#/,"attribution-signature":"[^"]*"/#, with: "")
        let jws = try #require(apple[5].firstMatch(of: #/"jws-string":"([^"]*)"/#)).1
        let parts = jws.split(separator: ".")
        func header(_ json: String) -> String {
            PostbackLines.base64URL(json) + "." + parts[1] + "." + parts[2]
        }
        let unknownKid = apple[5].replacingOccurrences(
            of: String(jws), with: header(#"{"kid":"someone/0","alg":"ES256"}"#))
        let otherAlgorithm = apple[5].replacingOccurrences(
            of: String(jws), with: header(#"{"kid":"apple-cas-identifier/0","alg":"RS256"}"#))
        let outcomes = try Self.outcomes([withoutSignature, unknownKid, otherAlgorithm])
        #expect(outcomes.map { $0.signature } == ["missing", "unknown-key", "unsupported"])
        #expect(outcomes.allSatisfy { $0.status == "bad-signature" })
    }

    /// Postbacks of `users` random journeys signed by the RFC 6979 test key, and a verifier that has the key.
    static func signedByTestKey(users: Int, seed: Int) throws -> (SyntheticPostbacks, SignatureVerifier) {
        let pem = try String(
            contentsOf: Paths.packageRoot.appendingPathComponent("Tests/Fixtures/keys/rfc6979-test-key.pem"),
            encoding: .utf8)
        let key = try #require(SyntheticPostbacks.SigningKey(pem: pem))
        var options = SyntheticPostbacks.Options()
        (options.users, options.signingKey) = (users, key)
        let schema = try shippedSchema("Shop")
        let journey = RandomJourney.text(for: schema, seed: seed)
        let added = try PostbackPublicKey(argument: "skadnetwork=\(key.publicKeyBase64)")
        return (
            SyntheticPostbacks(schema: schema, journey: Array(journey.utf8), options: options),
            SignatureVerifier(PostbackVerification(additionalKeys: [added]))
        )
    }

    /// Postbacks signed by an added key: once one has verified, the decoder tries that key first, so each
    /// further line costs one verification (Apple's key, listed first, is not tried on them); a line Apple signed
    /// brings Apple's key back to the front.
    @Test func theKeyThatSignedTheLastLineIsTriedFirst() throws {
        let (signed, verifier) = try Self.signedByTestKey(users: 3, seed: 3)
        #expect(signed.lines.count >= 3)
        var decoder = PostbackLineDecoder(validFine: Array(repeating: true, count: 64), verifier: verifier)
        func decode(_ line: String) -> SignatureOutcome? {
            Array(line.utf8).withUnsafeBufferPointer { decoder.decode($0).signature }
        }
        #expect(decoder.signerHints.p256 == 0)
        for line in signed.lines {
            #expect(decode(line) == .verified)
            #expect(decoder.signerHints.p256 == 1)
        }
        let appleSKAdNetwork4 = try #require(try Self.examples().first { $0.contains(#""version":"4.0""#) })
        #expect(decode(appleSKAdNetwork4) == .verified)
        #expect(decoder.signerHints.p256 == 0)
        #expect(decode(signed.lines[0]) == .verified)
        #expect(decoder.signerHints.p256 == 1)
    }

    /// A decoder verifies its first signatures without the tables and the rest with them
    /// (`SignatureVerifier.verificationsBeforeTables`): every outcome is the same on either side, a forged copy
    /// of each line refused before and after.
    @Test func tablesComeInAfterTheFirstVerificationsAndChangeNoOutcome() throws {
        let (signed, verifier) = try Self.signedByTestKey(users: 120, seed: 5)
        #expect(signed.lines.count > SignatureVerifier.verificationsBeforeTables / 2)
        var decoder = PostbackLineDecoder(validFine: Array(repeating: true, count: 64), verifier: verifier)
        func decode(_ line: String) -> SignatureOutcome? {
            Array(line.utf8).withUnsafeBufferPointer { decoder.decode($0).signature }
        }
        for (number, line) in signed.lines.enumerated() {
            #expect(decode(line) == .verified, "line \(number + 1)")
            // The same line with one character of its signature's r changed.
            let marker = try #require(line.range(of: #""attribution-signature":""#))
            let at = line.index(marker.upperBound, offsetBy: 20)
            let forged = line.replacingCharacters(in: at...at, with: line[at] == "A" ? "B" : "A")
            #expect(decode(forged) == .invalid, "forged line \(number + 1)")
        }
        #expect(decoder.signerHints.verifications == signed.lines.count * 2)
        #expect(decoder.signerHints.verifications > SignatureVerifier.verificationsBeforeTables)
    }
}
