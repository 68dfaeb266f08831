import SkanCompiler
import Testing

@testable import SkanPostbacks

/// The privacy tier a winning first postback's fields imply, and where they imply none.
struct TierInferenceTests {
    static func tiers(_ lines: [String]) throws -> [String] {
        let schema = try #require(
            SchemaCompiler.compile("schema S version 1\nflag a at bit 0\nreserved bits 1...5\ncoarse { low otherwise }")
                .schema)
        let output = ByteArrayOutput()
        let reader = PostbackReader(schema: schema, options: .init { $0.verification = nil }, output: output)
        reader.writeHeader()
        var input = ByteArrayInput(Array((lines.joined(separator: "\n") + "\n").utf8))
        try reader.read(&input, name: "tiers.jsonl")
        let rows = String(decoding: output.bytes, as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let column = try #require(rows.first?.firstIndex(of: "tier"))
        return rows.dropFirst().map { $0[column] }
    }

    @Test func digitsBeyondTwoWithoutAValueAreTierTwo() throws {
        let base =
            #""version":"4.0","ad-network-id":"n.skadnetwork","app-id":1,"redownload":false,"fidelity-type":1,"did-win":true"#
        let lines = [
            #"{\#(base),"transaction-id":"t1","source-identifier":"5239","postback-sequence-index":0}"#,
            #"{\#(base),"transaction-id":"t2","source-identifier":"523","postback-sequence-index":0}"#,
            #"{\#(base),"transaction-id":"t3","source-identifier":"52","postback-sequence-index":0}"#,
            #"{\#(base),"transaction-id":"t4","source-identifier":"5239","source-domain":"a.com","postback-sequence-index":0}"#,
            #"{\#(base),"transaction-id":"t5","source-identifier":"52","coarse-conversion-value":"low","postback-sequence-index":0}"#,
            #"{\#(base),"transaction-id":"t6","source-identifier":"5239","postback-sequence-index":1}"#,
        ]
        // 4 and 3 digits, no value: tier 2; 2 digits, no value: tier 0 or a tier-1 install whose app set no value
        // (the same fields): unknown, never claimed as 0; a web domain without a value tells nothing (4 digits: 2);
        // a coarse value: 1; a later postback: unknown.
        #expect(try Self.tiers(lines) == ["2", "2", "", "2", "1", ""])
    }

    @Test func twoDigitsWithoutAValueAreNeverClaimedAsTierZero() throws {
        let tail = #""ad-network-id":"n.skadnetwork","app-id":1,"redownload":false,"fidelity-type":1"#
        let lines = [
            #"{"version":"4.0",\#(tail),"did-win":true,"transaction-id":"u1","source-identifier":"52","postback-sequence-index":0}"#,
            // A contribution has no tier; a 3.0 postback comes before the tiers; a malformed identifier tells none.
            #"{"version":"4.0",\#(tail),"did-win":false,"transaction-id":"u2","source-identifier":"52","postback-sequence-index":0}"#,
            #"{"version":"3.0",\#(tail),"did-win":true,"transaction-id":"u3","campaign-id":52}"#,
            #"{"version":"4.0",\#(tail),"did-win":true,"transaction-id":"u4","source-identifier":"5x","postback-sequence-index":0}"#,
        ]
        #expect(try Self.tiers(lines) == ["", "", "", ""])
    }

    /// Apple's "first postback from a web ad, in a low postback data tier": two digits, a coarse value and
    /// `source-domain` is tier 1, not 3; a fine value with a publisher is tier 3, an app publisher alone too.
    @Test func aWebDomainAloneIsNoTierThree() throws {
        let base =
            #""version":"4.0","ad-network-id":"n.skadnetwork","app-id":1,"redownload":false,"fidelity-type":1,"did-win":true,"postback-sequence-index":0"#
        let lines = [
            #"{\#(base),"transaction-id":"w1","source-identifier":"39","source-domain":"example.com","coarse-conversion-value":"high"}"#,
            #"{\#(base),"transaction-id":"w2","source-identifier":"5239","source-domain":"example.com","conversion-value":4}"#,
            #"{\#(base),"transaction-id":"w3","source-identifier":"5239","source-app-id":123}"#,
        ]
        #expect(try Self.tiers(lines) == ["1", "3", "3"])
    }
}
