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
        // 4 and 3 digits, no value: tier 2 (they were unknown); 2 digits, no value: tier 0, or 1 without a coarse
        // value set, so unknown; a publisher: 3; a coarse value: 1; a later postback: unknown.
        #expect(try Self.tiers(lines) == ["2", "2", "", "3", "1", ""])
    }
}
