import SkanCompiler
import SkanCore
import SkanSchema
import SkanTestSupport
import Testing

@testable import SkanPostbacks

/// A report reads only counts, so its reader renders no rows (`Options.writesRows` off). Counting must not
/// depend on rendering: the same lines (duplicates, bad lines, lines too long, both frameworks, escaped
/// group keys) read with and without rows give the same summary and the same tally, and without rows
/// nothing is written.
@Suite struct ReaderWithoutRowsTests {
    static func read(_ bytes: [UInt8], _ schema: Schema, rows: Bool, threads: Int) throws
        -> (summary: PostbackSummary, tally: PostbackTally, written: Int)
    {
        let output = ByteArrayOutput()
        let options = PostbackReader.Options {
            ($0.verification, $0.threads, $0.chunkBytes, $0.writesRows) = (nil, threads, 2048, rows)
            $0.grouping = PostbackReader.Grouping(groupings: [.campaign, .countryCode])
        }
        let reader = PostbackReader(schema: schema, options: options, output: output)
        var input = ByteArrayInput(bytes, chunk: 1000)
        try reader.read(&input, name: "test")
        return (reader.summary, reader.tally!, output.bytes.count)
    }

    @Test func countsAreTheSameWithoutRows() throws {
        let schema = try shippedSchema("Shop")
        var generator = SplitMix64(seed: 0x0C0_FFEE)
        var lines: [String] = []
        var ids: [String] = []
        for index in 0..<600 {
            let id =
                index > 20 && generator.next() % 6 == 0
                ? ids[Int(generator.next() % UInt64(ids.count))] : PostbackLines.id()
            ids.append(id)
            let source = ["\"52\"", "\"5239\"", "\"5\\u0032\"", "\"77\""][Int(generator.next() % 4)]
            let value = "\"conversion-value\":\(generator.next() % 70),\"source-identifier\":\(source)"
            switch generator.next() % 8 {
            case 0: lines.append(PostbackLines.aak(stanza: "\"conversion-value\":\(index % 64)", id: id))
            case 1: lines.append("{\"version\":")
            case 2: lines.append(PostbackLines.skan("3.0", "\"conversion-value\":\(index % 64)", id: id))
            default: lines.append(PostbackLines.skan("4.0", value + ",\"country-code\":\"DE\"", id: id))
            }
        }
        lines.insert(String(repeating: "x", count: PostbackReader.maximumLineBytes + 10), at: 300)
        let bytes = Array(lines.joined(separator: "\n").utf8)
        for threads in [1, 2] {
            let withRows = try Self.read(bytes, schema, rows: true, threads: threads)
            let without = try Self.read(bytes, schema, rows: false, threads: threads)
            #expect(without.written == 0)
            #expect(withRows.written > 0)
            #expect(without.summary.text == withRows.summary.text)
            #expect(without.summary.count(of: .duplicate) > 0, "the lines hold duplicates")
            #expect(without.tally.keys == withRows.tally.keys)
            #expect(without.tally.keys.count >= 4)
            for group in without.tally.keys.indices {
                #expect(without.tally.windows(ofGroup: group) == withRows.tally.windows(ofGroup: group))
            }
        }
    }
}
