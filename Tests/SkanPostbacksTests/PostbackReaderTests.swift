import Foundation
import SkanCompiler
import SkanCore
import SkanSchema
import SkanTestSupport
import Testing

@testable import SkanPostbacks

/// Runs the reader over `text` and returns the output rows (CSV by default) and the summary.
func readPostbacks(
    _ bytes: [UInt8], schema: Schema, format: PostbackFormat = .csv, chunk: Int = 1 << 16,
    threads: Int = 2, duplicateCapacity: Int = 1 << 20, verification: PostbackVerification? = nil
) -> (rows: [String], summary: PostbackSummary) {
    let output = ByteArrayOutput()
    let options = PostbackReader.Options {
        ($0.format, $0.chunkBytes, $0.threads) = (format, chunk, threads)
        ($0.duplicateCapacity, $0.verification) = (duplicateCapacity, verification)
    }
    let reader = PostbackReader(schema: schema, options: options, output: output)
    reader.writeHeader()
    var input = ByteArrayInput(bytes, chunk: chunk)
    #expect(throws: Never.self) { try reader.read(&input, name: "test") }
    // Split by bytes: "\r\n" is one Character, which a split on "\n" would not see.
    var rows = output.bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }.dropLast()
    if format == .csv {
        // RFC 4180: every row ends in CRLF.
        #expect(rows.allSatisfy { $0.hasSuffix("\r") })
        rows = rows.map { String($0.dropLast()) }[...]
    }
    return (Array(rows), reader.summary)
}

@Suite struct PostbackReaderTests {
    static func shop() throws -> Schema { try shippedSchema("Shop") }

    /// Columns of a CSV row by name (no quoted commas in these tests' rows).
    static func columns(_ header: String, _ row: String) -> [String: String] {
        Dictionary(
            uniqueKeysWithValues: zip(
                header.split(separator: ",", omittingEmptySubsequences: false).map(String.init),
                row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)))
    }

    /// "Count only unique postbacks with signatures you verify": a tampered copy placed before Apple's genuine
    /// postback (its unsigned value set to 64, or its signature broken) takes no key, so the genuine one is `ok`.
    @Test func aBadLineThatArrivesFirstDoesNotDropTheGenuinePostback() throws {
        let examples = try String(
            contentsOf: Paths.packageRoot.appendingPathComponent("Tests/Fixtures/apple-examples.jsonl"), encoding: .utf8
        )
        let genuine = try #require(examples.split(separator: "\n").first { $0.contains(#""source-identifier":"39""#) })
        let outOfRange = genuine.replacingOccurrences(
            of: #""source-identifier":"39""#, with: #""source-identifier":"39","conversion-value":64"#)
        let forged = genuine.replacingOccurrences(of: #""source-identifier":"39""#, with: #""source-identifier":"38""#)
        #expect(outOfRange != genuine && forged != genuine)
        let verification = PostbackVerification()
        for (first, status) in [(outOfRange, PostbackStatus.outOfRange), (forged, .badSignature)] {
            for threads in [1, 2] {
                let input = Array((first + "\n" + genuine + "\n" + genuine + "\n").utf8)
                let (rows, summary) = readPostbacks(
                    input, schema: try Self.shop(), chunk: 300, threads: threads, verification: verification)
                let statuses = rows.dropFirst().map { Self.columns(rows[0], $0)["status"] }
                #expect(statuses == [status.code, "ok", "duplicate"], "\(status) \(threads)")
                #expect(summary.ok == 1)
            }
        }
    }

    @Test func bothSpellingsOfReengagementAreOneConversionType() throws {
        // Apple's payloads write `re-engagement`; its "Receiving ad attributions and postbacks" page `reengagement`.
        let lines = [
            PostbackLines.aak(payload: #""conversion-type":"reengagement""#),
            PostbackLines.aak(payload: #""conversion-type":"re-engagement""#),
        ]
        let (rows, summary) = readPostbacks(Array((lines.joined(separator: "\n") + "\n").utf8), schema: try Self.shop())
        #expect(summary.ok == 2)
        #expect(
            rows.dropFirst().map { Self.columns(rows[0], $0)["conversion_type"] } == ["re-engagement", "re-engagement"])
    }

    @Test func applesExamplesDecodeWithTheShopSchema() throws {
        let bytes = try [UInt8](
            Data(contentsOf: Paths.packageRoot.appendingPathComponent("Tests/Fixtures/apple-examples.jsonl")))
        let (rows, summary) = readPostbacks(bytes, schema: try Self.shop())
        #expect(rows.count == 7)
        let row = { (line: Int) in Self.columns(rows[0], rows[line]) }
        #expect(row(1)["status"] == "ok")
        #expect(
            row(1)["fine_value"] == "20" && row(1)["payment_tier"] == "medium"
                && row(1)["day_one_action"] == "addedToCart")
        #expect(
            row(1)["version"] == "2.2" && row(1)["campaign_id"] == "42" && row(1)["conversion_type"] == "redownload")
        #expect(row(1)["publisher"] == "1234567891" && row(1)["publisher_kind"] == "app")
        #expect(row(1)["interaction"] == "click" && row(1)["tier"] == "" && row(1)["source_identifier"] == "")
        // Apple's 2.2 and 3.0 examples share one transaction-id.
        #expect(row(2)["status"] == "duplicate" && row(2)["payment_tier"] == "medium")
        #expect(row(3)["status"] == "ok" && row(3)["did_win"] == "false" && row(3)["fine_value"] == "")
        #expect(row(4)["status"] == "invalid-fine" && row(4)["fine_value"] == "63" && row(4)["registered"] == "")
        #expect(
            row(5)["coarse_value"] == "high" && row(5)["coarse_meaning"] == "paymentTier >= medium"
                && row(5)["source_identifier"] == "39" && row(5)["source_digits"] == "2")
        #expect(row(5)["publisher"] == "example.com" && row(5)["publisher_kind"] == "web" && row(5)["tier"] == "1")
        #expect(row(4)["tier"] == "3" && row(4)["conversion_type"] == "download")
        let aak = row(6)
        #expect(aak["framework"] == "adattributionkit" && aak["status"] == "ok" && aak["version"] == "")
        #expect(aak["day_one_action"] == "ordered" && aak["fine_value"] == "24")
        #expect(aak["transaction_id"] == "85546EB7-FD39-44BC-8990-C98A4AC36A49")
        #expect(aak["ad_network_id"] == "development.adattributionkit" && aak["source_identifier"] == "1234")
        #expect(aak["publisher"] == "0" && aak["marketplace"] == "com.apple.AppStore" && aak["tier"] == "3")
        #expect(aak["app_id"] == "10738027756" && aak["postback_sequence_index"] == "0" && aak["did_win"] == "true")
        #expect(
            aak["interaction"] == "click" && aak["conversion_type"] == "re-engagement" && aak["country_code"] == "US")
        #expect(summary.read == 6 && summary.ok == 4)
    }

    /// Each hostile line with the status it must get.
    /// Each hostile line with the status it must get. (Apple's rules have their own suite,
    /// `PostbackValidationTests`; these are about reading any bytes at all.)
    static let hostile: [(String, PostbackStatus)] = [
        (PostbackLines.skan("4.0", #""conversion-value":5"#, id: "a"), .ok),
        (#"not json"#, .notJSON),
        (#"{"transaction-id":"b","conversion-value":5"#, .notJSON),
        (#"{"a":1,}"#, .notJSON),
        (#"{"a":[1,2,]}"#, .notJSON),
        (#"{"a":"bad \q escape"}"#, .notJSON),
        (#"{"a":01}"#, .notJSON),
        (#"{"a":1} {"b":2}"#, .notJSON),
        (#"[1,2,3]"#, .notObject),
        (#""just a string""#, .notObject),
        (#"42"#, .notObject),
        (PostbackLines.skan("4.0", #""conversion-value":6"#, id: "a"), .duplicate),
        (
            PostbackLines.skan(
                "4.0",
                #""x":"\"conversion-value\":64","nested":{"conversion-value":64,"deep":[{"a":[[[]]]}]},"conversion-value":7"#
            ),
            .ok
        ),
        (#"{"jws-string":"abc.!!!.def","conversion-value":1}"#, .jwsUnreadable),
        (#"{"jws-string":"a.e30","conversion-value":1}"#, .jwsUnreadable),
        (#"{"jws-string":"a.e30.b.c","conversion-value":1}"#, .jwsUnreadable),
        (#"{"jws-string":"a..b","conversion-value":1}"#, .jwsUnreadable),
        (#"{"jws-string":"a.e30x.b","conversion-value":1}"#, .jwsUnreadable),
        (#"{"jws-string":"a.e30.b","conversion-value":1}"#, .missingField),
        ("{\"conversion-value\":3,\"weird\":\"\u{0}\"}", .notJSON),
        (PostbackLines.skan("4.0", "\"conversion-value\":3,\"bytes\":\"\u{FF}\u{FE}\""), .ok),
    ]

    @Test func hostileLinesEachGetTheirStatusAndEveryLineARow() throws {
        let text = Self.hostile.map(\.0).joined(separator: "\n") + "\n"
        let (rows, summary) = readPostbacks(Array(text.utf8), schema: try Self.shop())
        #expect(rows.count == Self.hostile.count + 1)
        for (index, (line, status)) in Self.hostile.enumerated() {
            let row = rows[index + 1]
            #expect(row.hasPrefix("\(index + 1),\(status.code),"), "line \(index + 1) \(line): \(row)")
        }
        let problems = PostbackStatus.allCases.filter { $0 != .ok }.map { summary.count(of: $0) }.reduce(0, +)
        #expect(summary.read == Self.hostile.count)
        #expect(summary.read == summary.ok + problems)
    }

    @Test func byteOrderMarkCRLFBlankLinesAndNoFinalNewline() throws {
        let text =
            "\u{FEFF}" + PostbackLines.skan("4.0", #""conversion-value":1"#) + "\r\n\r\n   \n\t\n"
            + PostbackLines.skan("4.0", #""conversion-value":2"#) + "\r\n"
            + PostbackLines.skan("4.0", #""conversion-value":3"#)
        for chunk in [1, 2, 5, 1 << 16] {
            let (rows, summary) = readPostbacks(Array(text.utf8), schema: try Self.shop(), chunk: chunk)
            #expect(rows.map { $0.prefix(5) } == ["line,", "1,ok,", "5,ok,", "6,ok,"], "chunk \(chunk)")
            #expect(summary.blank == 3 && summary.read == 3)
        }
    }

    @Test func linesSplitAcrossChunksAndLongLines() throws {
        let long = "{\"x\":\"" + String(repeating: "a", count: PostbackReader.maximumLineBytes + 10) + "\"}"
        // Two long lines in a row, and a long last line without a newline.
        let text =
            PostbackLines.skan("4.0", #""conversion-value":1"#) + "\n" + long + "\n" + long + "\n"
            + PostbackLines.skan("4.0", #""conversion-value":9"#) + "\n" + long
        for chunk in [13, 4096, 1 << 22] {
            for threads in [1, 2] {
                let (rows, summary) = readPostbacks(
                    Array(text.utf8), schema: try Self.shop(), chunk: chunk, threads: threads)
                #expect(
                    rows.map { $0.prefix(16) } == [
                        "line,status,sign", "1,ok,,skadnetwor", "2,line-too-long,", "3,line-too-long,",
                        "4,ok,,skadnetwor", "5,line-too-long,",
                    ], "chunk \(chunk), threads \(threads)")
                #expect(summary.read == 5)
            }
        }
    }

    @Test func invalidUTF8IsRepairedInTheOutput() throws {
        let line =
            Array("{\"ad-network-id\":\"a".utf8) + [0xFF, 0xC3] + Array("b\",\"source-domain\":\"caf\u{E9}\"}\n".utf8)
        for format in PostbackFormat.allCases {
            let output = ByteArrayOutput()
            let reader = PostbackReader(schema: try Self.shop(), options: .init { $0.format = format }, output: output)
            var input = ByteArrayInput(line)
            try reader.read(&input, name: "t")
            let text = try #require(
                String(validating: output.bytes, as: UTF8.self), "\(format) output is not valid UTF-8")
            #expect(text.contains("a\u{FFFD}\u{FFFD}b") && text.contains("caf\u{E9}"), "\(format): \(text)")
        }
    }

    @Test func deepNestingIsSkippedWithoutRecursion() throws {
        let deep = PostbackLines.skan(
            "4.0",
            "\"a\":" + String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000)
                + ",\"conversion-value\":1")
        let unbalanced = String(repeating: "[", count: 1_000_000)
        let (rows, _) = readPostbacks(Array((deep + "\n" + unbalanced + "\n").utf8), schema: try Self.shop())
        #expect(rows[1].hasPrefix("1,ok,"))
        #expect(rows[2].hasPrefix("2,not-json,"))
    }

    @Test func csvCellsAreQuotedAndNeutralised() throws {
        let line =
            #"{"ad-network-id":"=HYPERLINK(\"x\")","version":"a,b","source-domain":"-US","transaction-id":"+1","app-id":-5}"#
        let (rows, _) = readPostbacks(Array((line + "\n").utf8), schema: try Self.shop())
        // "a,b" names no version; the cells are still written, quoted and neutralised.
        #expect(
            rows[1] == #"1,unknown-version,,skadnetwork,"a,b",'+1,"'=HYPERLINK(""x"")",,,,-5,'-US,web,,,,,,,,,,,,,"#)
    }

    @Test func jsonLinesRowsAreValidJSON() throws {
        let bytes = try [UInt8](
            Data(contentsOf: Paths.packageRoot.appendingPathComponent("Tests/Fixtures/apple-examples.jsonl")))
        let text = Self.hostile.map(\.0).joined(separator: "\n")
        let (rows, _) = readPostbacks(bytes + Array(text.utf8), schema: try Self.shop(), format: .jsonl)
        #expect(rows.count == 6 + Self.hostile.count)
        for row in rows {
            let object = try JSONSerialization.jsonObject(with: Data(row.utf8)) as? [String: Any]
            #expect(object?["status"] != nil, "\(row)")
        }
        let first = try #require(try JSONSerialization.jsonObject(with: Data(rows[0].utf8)) as? [String: Any])
        #expect(
            first["payment_tier"] as? String == "medium" && first["registered"] as? Bool == false
                && first["line"] as? Int == 1)
    }

    /// Rows are rendered in parallel with status `ok`; the ordered merge rewrites the status of a duplicate
    /// in place and takes the row's counts back from the ok figures.
    @Test func duplicatesAreRewrittenInPlaceAndRecounted() throws {
        let examples = try [UInt8](
            Data(contentsOf: Paths.packageRoot.appendingPathComponent("Tests/Fixtures/apple-examples.jsonl")))
        let schema = try Self.shop()
        let once = readPostbacks(examples, schema: schema, format: .jsonl)
        let twice = readPostbacks(examples + examples, schema: schema, format: .jsonl, chunk: 300)
        #expect(twice.rows.count == 2 * once.rows.count)
        for (first, second) in zip(once.rows, twice.rows[once.rows.count...]) {
            let a = try #require(try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
            let b = try #require(
                try JSONSerialization.jsonObject(with: Data(second.utf8)) as? [String: Any], "\(second)")
            let status = a["status"] as? String
            #expect(b["status"] as? String == (status == "ok" ? "duplicate" : status))
            #expect(
                a["fine_value"] as? Int == b["fine_value"] as? Int
                    && a["coarse_value"] as? String == b["coarse_value"] as? String)
        }
        #expect(twice.summary.ok == once.summary.ok)
        #expect(twice.summary.count(of: .duplicate) == 2 * once.summary.count(of: .duplicate) + once.summary.ok)
        #expect(twice.summary.fineValues == once.summary.fineValues)
        #expect(twice.summary.coarseCounts == once.summary.coarseCounts)
        #expect(twice.summary.read == 2 * once.summary.read)
    }

    /// Thousands of distinct keys, then some again: a duplicate index that starts tiny grows many times
    /// and finds the same duplicates as one that never grows.
    @Test func duplicateIndexGrowsWithoutLosingKeys() throws {
        func uuid(_ number: Int) -> String {
            let hex = String(number, radix: 16)
            let digits = String(repeating: "0", count: 32 - hex.count) + hex
            let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
                String(
                    digits[
                        digits.index(
                            digits.startIndex, offsetBy: range.lowerBound)..<digits.index(
                                digits.startIndex, offsetBy: range.upperBound)])
            }
            return parts.joined(separator: "-")
        }
        var lines: [String] = []
        for number in 1...5000 {
            lines.append(PostbackLines.skan("4.0", #""conversion-value":1"#, id: uuid(number * 7919)))
        }
        for number in 1...300 { lines.append(PostbackLines.skan("4.0", #""conversion-value":1"#, id: "key \(number)")) }
        for number in stride(from: 1, through: 5000, by: 5) {
            lines.append(PostbackLines.skan("4.0", #""conversion-value":1"#, id: uuid(number * 7919)))
        }
        for number in 1...30 { lines.append(PostbackLines.skan("4.0", #""conversion-value":1"#, id: "key \(number)")) }
        let input = Array((lines.joined(separator: "\n") + "\n").utf8)
        let schema = try Self.shop()
        let large = readPostbacks(input, schema: schema)
        #expect(large.summary.count(of: .duplicate) == 1000 + 30)
        #expect(large.summary.ok == 5300)
        for (threads, keys) in [(1, 4), (2, 16)] {
            let small = readPostbacks(input, schema: schema, chunk: 4096, threads: threads, duplicateCapacity: keys)
            #expect(small.rows == large.rows)
        }
    }

    @Test func outputIsTheSameForEveryThreadCountAndChunkSize() throws {
        let examples = try [UInt8](
            Data(contentsOf: Paths.packageRoot.appendingPathComponent("Tests/Fixtures/apple-examples.jsonl")))
        let hostile = Array((Self.hostile.map(\.0).joined(separator: "\n") + "\n\n").utf8)
        var input: [UInt8] = []
        for copy in 0..<300 { input += copy % 2 == 0 ? examples : hostile }
        let schema = try Self.shop()
        let reference = readPostbacks(input, schema: schema, chunk: 1 << 20, threads: 1)
        #expect(reference.rows.count == reference.summary.read + 1)
        #expect(reference.summary.count(of: .duplicate) > 1000)
        // The duplicate index starts small in some runs, so that it grows many times along the way.
        for (threads, chunk, keys) in [
            (1, 97, 4), (2, 97, 1 << 20), (3, 4096, 16), (4, 1 << 16, 1 << 20), (2, 1 << 20, 8),
        ] {
            for format in PostbackFormat.allCases {
                let expected =
                    format == .csv
                    ? reference.rows
                    : readPostbacks(input, schema: schema, format: format, chunk: 1 << 20, threads: 1).rows
                let result = readPostbacks(
                    input, schema: schema, format: format, chunk: chunk, threads: threads, duplicateCapacity: keys)
                #expect(result.rows == expected, "threads \(threads), chunk \(chunk), index \(keys), \(format)")
                #expect(result.summary.text == reference.summary.text)
            }
        }
    }

    @Test func randomBytesNeverCrashAndAreAllAccountedFor() throws {
        var generator = SplitMix64(seed: 42)
        let schema = try Self.shop()
        for _ in 0..<50 {
            // Random bytes with a newline about every 40 bytes, so there are many lines of every shape.
            let bytes = (0..<Int.random(in: 0..<5000, using: &generator)).map { _ in
                UInt64.random(in: 0..<40, using: &generator) == 0 ? 0x0A : UInt8.random(in: 0...255, using: &generator)
            }
            let (rows, summary) = readPostbacks(bytes, schema: schema, chunk: 333)
            #expect(rows.count == summary.read + 1)
        }
    }

    @Test func aFailingInputStopsAfterTheRowsReadSoFar() throws {
        struct Broken: Error {}
        /// One line, then a failure.
        struct FailingInput: PostbackInput {
            var sent = false
            mutating func read<Buffer: MutableCollection<UInt8> & RandomAccessCollection>(into buffer: inout Buffer)
                throws -> Int
            where Buffer.Index == Int {
                guard !sent else { throw Broken() }
                sent = true
                let line = Array("{\"conversion-value\":1}\n".utf8)
                for (index, byte) in line.enumerated() { buffer[index] = byte }
                return line.count
            }
        }
        let output = ByteArrayOutput()
        let reader = PostbackReader(schema: try Self.shop(), options: .init { $0.threads = 1 }, output: output)
        var input = FailingInput()
        #expect(throws: Broken.self) { try reader.read(&input, name: "t") }
        #expect(reader.summary.read == 1)
        #expect(String(decoding: output.bytes, as: UTF8.self).hasPrefix("1,"))
    }
}
