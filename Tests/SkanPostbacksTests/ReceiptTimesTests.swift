import SkanCompiler
import SkanCore
import SkanSchema
import Testing

@testable import SkanPostbacks

/// The receipt times beside a segment, read as `skanc serve` writes them, and their column in the rows.
struct ReceiptTimesTests {
    @Test func aLineIsOneToTwelveDigitsUpToTheLastFourDigitYear() {
        let text = "0\n1764768600\r\n\nabc\n12345678901234\n253402300799\n253402300800\n 1\n7"
        let times = ReceiptTimes(Array(text.utf8))
        #expect(times.seconds == [0, 1_764_768_600, nil, nil, nil, 253_402_300_799, nil, nil, 7])
        #expect(times[line: 2] == 1_764_768_600)
        #expect(times[line: 0] == nil && times[line: 10] == nil)
        #expect(ReceiptTimes([]).seconds.isEmpty)
        #expect(ReceiptTimes(Array("5\n".utf8)).seconds == [5])
    }

    @Test func theWriterAndTheReaderAgreeOnTheFormat() {
        let written = [0, 951_782_400, 1_764_768_600].map(ReceiptTimes.line).joined()
        #expect(ReceiptTimes(Array(written.utf8)).seconds == [0, 951_782_400, 1_764_768_600])
        #expect(
            ReceiptTimes.path(besides: "store/postbacks/2026-12-03/a-1.jsonl") == "store/postbacks/2026-12-03/a-1.times"
        )
        #expect(ReceiptTimes.path(besides: "postbacks.json") == nil)
    }

    @Test func utcTimesAreWrittenAsISO8601() {
        #expect(UTCTime.iso8601(0) == "1970-01-01T00:00:00Z")
        #expect(UTCTime.iso8601(951_782_400) == "2000-02-29T00:00:00Z")
        #expect(UTCTime.iso8601(253_402_300_799) == "9999-12-31T23:59:59Z")
        #expect(UTCTime.day(1_764_768_600) == "2025-12-03")
        #expect(UTCTime.stamp(1_764_768_600) == "20251203T133000Z")
        // Every day of four years round-trips through the day number.
        for day in 10_950..<12_411 {
            let (year, month, date) = UTCTime.date(dayNumber: day)
            #expect(UTCTime.dayNumber(year: year, month: month, day: date) == day)
        }
    }

    /// Rows take their line's time, across batches and threads, in CSV and JSON lines; a line past the times has
    /// none.
    @Test(arguments: [PostbackFormat.csv, .jsonl], [1, 4])
    func rowsCarryTheirLinesTime(_ format: PostbackFormat, threads: Int) throws {
        let lines = (0..<300).map { #"{"version":"4.0","ad-network-id":"n","transaction-id":"t\#($0)"}"# }
        let times = ReceiptTimes(Array((0..<290).map { ReceiptTimes.line(1_764_768_600 + $0) }.joined().utf8))
        let output = ByteArrayOutput()
        let reader = PostbackReader(
            schema: try Self.schema(),
            options: .init {
                ($0.format, $0.threads, $0.chunkBytes, $0.verification) = (format, threads, 512, nil)
                $0.withReceiptColumn = true
            }, output: output)
        reader.writeHeader()
        var input = ByteArrayInput(Array((lines.joined(separator: "\n") + "\n").utf8))
        try reader.read(&input, name: "a.jsonl", receipts: times)
        let rows = String(decoding: output.bytes, as: UTF8.self).split(whereSeparator: \.isNewline).dropFirst(
            format == .csv ? 1 : 0)
        #expect(rows.count == 300)
        for (index, row) in rows.enumerated() {
            let expected = index < 290 ? UTCTime.iso8601(1_764_768_600 + index) : nil
            switch format {
            case .csv:
                #expect(row.split(separator: ",", omittingEmptySubsequences: false)[1] == (expected ?? "")[...])
            case .jsonl:
                #expect(row.contains(expected.map { #""received_at":"\#($0)""# } ?? #""received_at":null"#))
            }
        }
    }

    static func schema() throws -> Schema {
        try #require(
            SchemaCompiler.compile("schema S version 1\nflag a at bit 0\nreserved bits 1...5\ncoarse { low otherwise }")
                .schema)
    }
}
