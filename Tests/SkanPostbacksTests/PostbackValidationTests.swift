import Foundation
import SkanCompiler
import SkanSchema
import SkanTestSupport
import Testing

@testable import SkanPostbacks

/// Apple's rules per version and framework: one line for every status and every per-version rule, each
/// with the status it must get (docs/Postbacks.md lists the rules and their sources).
@Suite struct PostbackValidationTests {
    typealias L = PostbackLines

    static let cases: [(line: String, status: PostbackStatus, rule: String)] = [
        // Valid postbacks of every version and framework.
        (L.skan("1.0"), .ok, "1.0: ad-network-id, campaign-id, app-id, transaction-id"),
        (L.skan("2.0", #""conversion-value":20,"source-app-id":1"#), .ok, "2.0 adds version, redownload"),
        (L.skan("2.1"), .ok, "2.1 as 2.0"),
        (L.skan("2.2", #""conversion-value":20"#), .ok, "2.2 adds fidelity-type"),
        (L.skan("3.0", #""conversion-value":20,"source-app-id":1"#), .ok, "3.0 adds did-win"),
        (L.skan("3.0", #""did-win":false"#), .ok, "a 3.0 non-winner without value or publisher"),
        (L.skan("4.0", #""conversion-value":20,"source-app-id":1"#), .ok, "4.0 tier 3, app"),
        (L.skan("4.0", #""conversion-value":20,"source-domain":"example.com""#), .ok, "4.0 tier 3, web"),
        (L.skan("4.0", #""coarse-conversion-value":"high","postback-sequence-index":2"#), .ok, "4.0 third postback"),
        (L.skan("4.0", #""did-win":false"#), .ok, "a 4.0 non-winner"),
        (L.aak(), .ok, "AdAttributionKit"),
        // Apple's test postbacks always carry source-app-id and conversion-value 0; a real one has an app's ID.
        (L.skan("3.0", #""conversion-value":0,"source-app-id":0"#), .testPostback, "an SKAdNetwork test postback"),
        (L.skan("4.0", #""conversion-value":0,"source-app-id":0"#), .testPostback, "a 4.0 test postback"),
        (L.skan("4.0", #""conversion-value":0,"source-app-id":1"#), .ok, "a real fine value 0"),
        (L.skan("4.0", #""conversion-value":1,"source-app-id":0"#), .ok, "a test postback is 0 and 0"),
        (L.aak(payload: #""publisher-item-identifier":0"#, stanza: #""conversion-value":0"#), .ok, "AdAttributionKit"),
        (L.aak(payload: #""publisher-item-identifier":7,"conversion-type":"re-engagement""#), .ok, "re-engagement"),
        (
            L.aak(payload: #""conversion-type":"reengagement""#), .ok,
            "reengagement, as Apple's Receiving page spells it"
        ),
        // Types and numbers.
        (L.skan("4.0", #""conversion-value":"12""#), .wrongType, "a string for a number"),
        (L.skan("4.0", #""conversion-value":null"#), .wrongType, "null for a number"),
        (L.skan("4.0", #""did-win":"yes""#), .wrongType, "a string for a Boolean"),
        (L.skan("4.0", #""source-identifier":1234"#), .wrongType, "source-identifier is a string"),
        (L.skan("4.0", #""version":4"#), .wrongType, "version is a string"),
        (L.skan("4.0", #""conversion-value":2.5"#), .wrongType, "a fraction"),
        (L.skan("4.0", #""conversion-value":1e-400"#), .wrongType, "a tiny fraction is still a fraction"),
        (L.skan("4.0", #""conversion-value":1.00000000000000000000000000000000000000001"#), .wrongType, "exactly"),
        (L.skan("4.0", #""conversion-value":2.0e1"#), .ok, "an exponent that makes a whole number (20)"),
        (L.skan("4.0", #""conversion-value":20.000"#), .ok, "a whole number written with a fraction"),
        (L.skan("4.0", #""conversion-value":64"#), .outOfRange, "fine values are 0...63"),
        (L.skan("4.0", #""conversion-value":-1"#), .outOfRange, "no negative fine value"),
        (L.skan("4.0", #""conversion-value":1e400"#), .outOfRange, "a huge whole number"),
        (L.skan("4.0", #""conversion-value":99999999999999999999"#), .outOfRange, "a long whole number"),
        (L.skan("4.0", #""postback-sequence-index":3"#), .outOfRange, "postbacks 0, 1, 2"),
        (L.skan("4.0", #""fidelity-type":2"#), .outOfRange, "fidelity-type 0 or 1"),
        // Versions.
        (L.skan("4.0", #""version":"5.0""#), .unknownVersion, "no version 5.0"),
        (L.skan("2.0", #""version":"2.3""#), .unknownVersion, "no version 2.3"),
        // Required fields, per version.
        ("{}", .missingField, "no version is 1.0, which needs four fields"),
        (#"{"conversion-value":20}"#, .missingField, "a value alone is no postback"),
        (L.skan("1.0").replacingOccurrences(of: #","campaign-id":42"#, with: ""), .missingField, "1.0 campaign-id"),
        (L.skan("2.0").replacingOccurrences(of: #","redownload":false"#, with: ""), .missingField, "2.0 redownload"),
        (L.skan("2.2").replacingOccurrences(of: #","fidelity-type":1"#, with: ""), .missingField, "2.2 fidelity"),
        (L.skan("3.0").replacingOccurrences(of: #","did-win":true"#, with: ""), .missingField, "3.0 did-win"),
        (
            L.skan("4.0").replacingOccurrences(of: #","postback-sequence-index":0"#, with: ""), .missingField,
            "4.0 postback-sequence-index"
        ),
        (
            L.skan("4.0").replacingOccurrences(of: #","source-identifier":"1234""#, with: ""), .missingField,
            "4.0 source-identifier"
        ),
        (
            L.skan("3.0", id: "x").replacingOccurrences(of: #","transaction-id":"x""#, with: ""), .missingField,
            "every version has transaction-id"
        ),
        // Fields a version does not have.
        (L.skan("4.0", #""campaign-id":42"#), .fieldNotAllowed, "campaign-id ends with 3.0"),
        (L.skan("3.0", #""source-identifier":"12""#), .fieldNotAllowed, "source-identifier starts with 4.0"),
        (L.skan("3.0", #""postback-sequence-index":0"#), .fieldNotAllowed, "postback-sequence-index 4.0"),
        (L.skan("3.0", #""coarse-conversion-value":"low""#), .fieldNotAllowed, "coarse values start with 4.0"),
        (L.skan("3.0", #""source-domain":"example.com""#), .fieldNotAllowed, "source-domain starts with 4.0"),
        (L.skan("2.2", #""did-win":true"#), .fieldNotAllowed, "did-win starts with 3.0"),
        (L.skan("2.1", #""fidelity-type":1"#), .fieldNotAllowed, "fidelity-type starts with 2.2"),
        (L.skan("1.0", #""conversion-value":20"#), .fieldNotAllowed, "conversion values start with 2.0"),
        (L.skan("4.0", #""country-code":"US""#), .ok, "country-code is a 4.0 parameter (by data tier, unsigned)"),
        (L.skan("3.0", #""country-code":"US""#), .fieldNotAllowed, "country-code arrived with 4.0"),
        (L.skan("4.0", #""country-code":"USA""#), .wrongType, "a country code is two letters"),
        (L.skan("4.0", #""country-code":840"#), .wrongType, "a country code is text"),
        (L.aak(stanza: #""conversion-value":5,"transaction-id":"t""#), .fieldNotAllowed, "SKAdNetwork's key"),
        (L.aak(payload: #""campaign-id":4"#), .fieldNotAllowed, "nothing unknown to Apple in the payload"),
        // AdAttributionKit: signed fields inside, values outside.
        (L.aak(stanza: #""conversion-value":5,"did-win":true"#), .signedFieldOutside, "did-win is signed"),
        (L.aak(stanza: #""conversion-value":5,"postback-identifier":"p""#), .signedFieldOutside, "the key is signed"),
        (L.aak(payload: #""conversion-value":5"#, stanza: ""), .valueInPayload, "values sit outside the payload"),
        (L.aak().replacingOccurrences(of: #""conversion-value":5"#, with: #""country-code":"US""#), .ok, "no value"),
        // Source identifiers: a string of two, three or four digits.
        (L.skan("4.0", #""source-identifier":"1""#), .badSourceIdentifier, "one digit"),
        (L.skan("4.0", #""source-identifier":"12345""#), .badSourceIdentifier, "five digits"),
        (L.skan("4.0", #""source-identifier":"12a4""#), .badSourceIdentifier, "not digits"),
        (L.skan("4.0", #""source-identifier":"39""#), .ok, "two digits"),
        (L.aak(payload: #""source-identifier":"x""#), .badSourceIdentifier, "AdAttributionKit alike"),
        // Enumerations.
        (L.skan("4.0", #""coarse-conversion-value":"extreme""#), .unknownCoarse, "low, medium, high"),
        (
            L.aak(payload: #""conversion-type":"install""#), .unknownConversionType,
            "download, redownload, re-engagement"
        ),
        (L.aak(stanza: #""conversion-value":5,"ad-interaction-type":"tap""#), .unknownInteractionType, "click, view"),
        // Values and windows.
        (L.skan("4.0", #""conversion-value":5,"coarse-conversion-value":"low""#), .fineAndCoarse, "one or the other"),
        (L.skan("4.0", #""conversion-value":5,"postback-sequence-index":1"#), .fineNotFirst, "fine: postback 1"),
        // What non-winners cannot carry.
        (L.skan("4.0", #""did-win":false,"postback-sequence-index":1"#), .nonWinnerExtra, "only the first postback"),
        (L.skan("4.0", #""did-win":false,"coarse-conversion-value":"low""#), .nonWinnerExtra, "no value"),
        (L.skan("3.0", #""did-win":false,"conversion-value":5"#), .nonWinnerExtra, "no fine value"),
        (L.skan("3.0", #""did-win":false,"source-app-id":1"#), .nonWinnerExtra, "3.0 non-winners: no source app"),
        (L.aak(payload: #""did-win":false"#), .nonWinnerExtra, "AdAttributionKit alike"),
        // The schema's own rule.
        (L.skan("4.0", #""conversion-value":42"#), .invalidFine, "Shop reserves bit 5"),
        (L.skan("4.0", #""conversion-value":5"#, id: "same"), .ok, "(first of two)"),
        (L.skan("4.0", #""conversion-value":6"#, id: "same"), .duplicate, "a transaction-id seen before"),
    ]

    @Test func everyLineGetsItsStatus() throws {
        let text = Self.cases.map(\.line).joined(separator: "\n") + "\n"
        let (rows, summary) = readPostbacks(Array(text.utf8), schema: try shippedSchema("Shop"))
        #expect(rows.count == Self.cases.count + 1)
        for (index, (line, status, rule)) in Self.cases.enumerated() {
            #expect(
                rows[index + 1].hasPrefix("\(index + 1),\(status.code),"), "\(rule): \(line)\n\(rows[index + 1])")
        }
        #expect(summary.read == Self.cases.count)
    }

    @Test func everyStatusHasALine() {
        // line-too-long: PostbackReaderTests; bad-signature: SignatureTests; ambiguous-version: below;
        // unknown-app: SchemaCatalogTests.
        let covered = Set(Self.cases.map(\.status)).union(PostbackReaderTests.hostile.map(\.1))
            .union([.lineTooLong, .badSignature, .ambiguousVersion, .unknownApp])
        #expect(Set(PostbackStatus.allCases).subtracting(covered).isEmpty)
    }

    /// Versions live together (Shop 3 and ShopV4, which does not mark its values): a value valid in both is
    /// `ambiguous-version`, one valid only in version 4 is decoded with it, in every thread and batch size.
    @Test(arguments: [(1, 1 << 16), (2, 64)])
    func valuesValidInTwoLiveVersionsAreAmbiguous(_ threads: Int, _ chunk: Int) throws {
        let v4 = try #require(
            SchemaCompiler.compile(
                try String(
                    contentsOf: Paths.packageRoot.appendingPathComponent(
                        "Tests/SkanCompilerTests/Fixtures/ShopV4.skan"),
                    encoding: .utf8)
            ).schema)
        let text = [
            L.skan("4.0", #""conversion-value":11"#, id: "a"), L.skan("4.0", #""conversion-value":43"#, id: "b"),
        ].joined(separator: "\n")
        let output = ByteArrayOutput()
        let options = PostbackReader.Options { ($0.chunkBytes, $0.threads, $0.verification) = (chunk, threads, nil) }
        let reader = PostbackReader(
            versions: LiveVersions([try shippedSchema("Shop"), v4]), options: options, output: output)
        reader.writeHeader()
        var input = ByteArrayInput(Array(text.utf8), chunk: chunk)
        try reader.read(&input, name: "test")
        let rows = String(decoding: output.bytes, as: UTF8.self).split(separator: "\r\n")
        #expect(rows[0].contains(",coarse_value,schema_version,registered,payment_tier,day_one_action,subscribed,"))
        #expect(rows[1].hasPrefix("1,ambiguous-version,"))
        #expect(rows[2].hasPrefix("2,ok,"))
        #expect(rows[2].contains(",43,,4,true,low,browsed,true,"))
        #expect(reader.summary.count(of: .ambiguousVersion) == 1)
        #expect(reader.summary.fineValues(of: v4) == 1)
    }

    @Test func applesExamplesAreAllValid() throws {
        let bytes = try [UInt8](
            Data(contentsOf: Paths.packageRoot.appendingPathComponent("Tests/Fixtures/apple-examples.jsonl")))
        let (rows, _) = readPostbacks(bytes, schema: try shippedSchema("Shop"))
        // Line 2 repeats line 1's transaction-id; line 4's fine value 63 sets Shop's reserved bit.
        #expect(
            rows.dropFirst().map { $0.split(separator: ",")[1] } == [
                "ok", "duplicate", "ok", "invalid-fine", "ok", "ok",
            ])
    }

    @Test func everyJSONLinesColumnKeepsOneType() throws {
        let examples = try String(
            contentsOf: Paths.packageRoot.appendingPathComponent("Tests/Fixtures/apple-examples.jsonl"), encoding: .utf8
        )
        let lines = Self.cases.map(\.line) + PostbackReaderTests.hostile.map(\.0) + [examples]
        let (rows, _) = readPostbacks(
            Array(lines.joined(separator: "\n").utf8), schema: try shippedSchema("Shop"), format: .jsonl)
        /// A JSON value's type, as the JSON text has it.
        enum JSONType: String, Decodable {
            case string, number, boolean, null
            init(from decoder: any Decoder) throws {
                let value = try decoder.singleValueContainer()
                if value.decodeNil() {
                    self = .null
                } else if (try? value.decode(Bool.self)) != nil {
                    self = .boolean
                } else if (try? value.decode(Double.self)) != nil {
                    self = .number
                } else {
                    _ = try value.decode(String.self)
                    self = .string
                }
            }
        }
        var types: [String: Set<JSONType>] = [:]
        for row in rows {
            let object = try JSONDecoder().decode([String: JSONType].self, from: Data(row.utf8))
            for (key, type) in object where type != .null { types[key, default: []].insert(type) }
        }
        for (column, kinds) in types { #expect(kinds.count == 1, "\(column): \(kinds)") }
        #expect(types["source_identifier"] == [.string] && types["publisher"] == [.string])
        #expect(types["fine_value"] == [.number] && types["did_win"] == [.boolean])
    }

    @Test func theSummaryCountsWhatTheRowsSay() throws {
        let lines = [
            L.skan("4.0", #""conversion-value":"12""#),  // a mistyped value is still a value
            L.skan("4.0", #""source-identifier":"39""#),  // two digits, no value
            L.skan("4.0", #""conversion-value":5"#),
            L.skan("3.0"),  // campaign-id: before the tiers
            L.skan("3.0", #""conversion-value":5"#),
        ]
        let (_, summary) = readPostbacks(Array(lines.joined(separator: "\n").utf8), schema: try shippedSchema("Shop"))
        #expect(summary.text.contains("  2 digits: 1 of 1 (100.0%)\n"), "\(summary.text)")
        #expect(summary.text.contains("  4 digits: 0 of 2 (0.0%)\n"), "\(summary.text)")
        #expect(summary.text.contains("  SKAdNetwork before 4.0 (campaign-id): 1 of 2 (50.0%)\n"), "\(summary.text)")
        #expect(!summary.text.contains("no valid source-identifier"))
    }

    @Test func statusIndexesAndCodesFollowTheDeclaration() {
        // The summary counts statuses in an array by `index`; rows spell them with `bytes`.
        for (position, status) in PostbackStatus.allCases.enumerated() {
            #expect(status.index == position)
            #expect(PostbackStatus(code: status.code) == status)
        }
    }
}
