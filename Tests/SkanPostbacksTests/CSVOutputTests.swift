import Foundation
import SkanCore
import SkanTestSupport
import Testing

@testable import SkanPostbacks

/// Postback rows read back through a strict RFC 4180 reader: one record per line, every record as wide as the
/// header, and no cell a spreadsheet would run, whatever an unsigned value holds.
@Suite struct CSVOutputTests {
    @Test func anUnsignedValueWithALineBreakAndAFormulaStaysInItsCell() throws {
        let examples = try String(
            contentsOf: Paths.packageRoot.appendingPathComponent("Tests/Fixtures/apple-examples.jsonl"), encoding: .utf8
        ).split(separator: "\n").map(String.init)
        let hostile = #""US\r\n=cmd|' /C calc'!A0""#
        let lines = [
            // AdAttributionKit's development example (signed; the stanza's values are not).
            examples[5].replacingOccurrences(of: "{", with: "{\"coarse-conversion-value\":\(hostile),"),
            // The same in SKAdNetwork 4.0's unsigned coarse value and in a string with a combining mark.
            examples[3].replacingOccurrences(of: "{", with: "{\"coarse-conversion-value\":\(hostile),"),
            examples[3].replacingOccurrences(of: "{", with: #"{"coarse-conversion-value":"=\u0301x,\"\u0301","#),
        ]
        let output = ByteArrayOutput()
        let options = PostbackReader.Options {
            ($0.chunkBytes, $0.threads, $0.duplicateCapacity) = (1 << 16, 2, 1 << 10)
            $0.verification = PostbackVerification(allowDevelopment: true)
        }
        let reader = PostbackReader(schema: try shippedSchema("Shop"), options: options, output: output)
        reader.writeHeader()
        var input = ByteArrayInput(Array(lines.joined(separator: "\n").utf8), chunk: 1 << 16)
        try reader.read(&input, name: "test")
        let records = try StrictCSV.records(String(decoding: output.bytes, as: UTF8.self))
        #expect(records.count == lines.count + 1)
        let width = records[0].count
        let coarse = try #require(records[0].firstIndex(of: "coarse_value"))
        let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "@", "\t", "\r"]
        for record in records.dropFirst() {
            #expect(record.count == width, "\(record)")
            let formulas = record.filter { $0.unicodeScalars.first.map(formulaStarts.contains) ?? false }
            #expect(formulas.isEmpty, "\(record)")
        }
        #expect(records[1][coarse] == "US\r\n=cmd|' /C calc'!A0")
        // (A constant: #expect cannot spell a literal with a lone combining mark in its expansion.)
        let neutralised = "'=\u{301}x,\"\u{301}"
        #expect(records[3][coarse] == neutralised)
    }
}
