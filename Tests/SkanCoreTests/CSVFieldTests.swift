import SkanCore
import Testing

/// CSV cells are decided on bytes and scalars: a line break, comma or quote stays one whatever follows it,
/// and a formula is neutralised by its first scalar.
@Suite struct CSVFieldTests {
    /// `text` as one cell of a row between two others reads back as one cell, neutralised or not.
    static func roundTrips(_ text: String) throws -> Bool {
        let row = "a," + CSVField.escaped(text) + ",z\r\n"
        let records = try StrictCSV.records(row)
        guard records.count == 1, records[0].count == 3 else { return false }
        return records[0][1] == text || records[0][1] == "'" + text
    }

    @Test func clustersDoNotHideLineBreaksCommasOrQuotes() throws {
        for text in [
            "US\r\n=cmd|' /C calc'!A0", "a\r\nb", ",\u{301}", "\"\u{301}", "x\"\u{301}y", "\r\n", "\u{301},",
            "a\u{200D},b", "\"\"\u{FE0F}",
        ] {
            #expect(try Self.roundTrips(text), "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        #expect(CSVField.escaped("\"\u{301}") == "\"\"\"\u{301}\"")
    }

    @Test func aFormulaIsNeutralisedByItsFirstScalar() {
        #expect(CSVField.escaped("=\u{301}1+1") == "'=\u{301}1+1")
        #expect(CSVField.escaped("+\u{20DD}") == "'+\u{20DD}")
        #expect(CSVField.escaped("\r\n=1") == "\"'\r\n=1\"")
        #expect(CSVField.escaped("-1.5") == "-1.5")
    }

    @Test func randomTextAlwaysReadsBackAsOneCell() throws {
        var random = SplitMix64(seed: 23)
        let alphabet: [Unicode.Scalar] = [
            "a", ",", "\"", "\r", "\n", "=", "+", "-", "@", "\t", "\u{301}", "\u{200D}", "\u{FE0F}", "1", ".", "'",
        ]
        for _ in 0..<2_000 {
            var scalars = String.UnicodeScalarView()
            for _ in 0..<Int(random.next() % 8) {
                scalars.append(alphabet[Int(random.next() % UInt64(alphabet.count))])
            }
            let text = String(scalars)
            #expect(try Self.roundTrips(text), "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test func sqlAndMarkupEscapeQuotesFollowedByMarks() {
        #expect(SQLDialect.postgres.string("x'\u{301}") == "'x''\u{301}'")
        #expect(SQLDialect.postgres.identifier("a\"\u{301}") == "\"a\"\"\u{301}\"")
        #expect(HTMLText.escaped("<\u{301}b") == "&lt;\u{301}b")
    }
}

/// The SQL and HTML escapers every writer of those languages uses.
@Suite struct SQLAndHTMLTextTests {
    @Test func sqlLiteralsAndIdentifiers() {
        #expect(SQLDialect.sqlite.string("it's") == "'it''s'")
        #expect(SQLDialect.postgres.string("a\\b") == "'a\\b'")
        #expect(SQLDialect.bigquery.string("it's a\\b\n") == "'it\\'s a\\\\b\\n'")
        #expect(SQLDialect.snowflake.string("it's a\\b") == "'it''s a\\\\b'")
        #expect(SQLDialect.duckdb.string("nul\u{0}") == "'nul\u{FFFD}'")
        #expect(SQLDialect.postgres.identifier("we\"ird") == "\"we\"\"ird\"")
        #expect(SQLDialect.bigquery.identifier("we`ird") == "`we\\`ird`")
    }

    @Test func htmlReferencesForTheFiveCharacters() {
        #expect(HTMLText.escaped("<b>&\"'") == "&lt;b&gt;&amp;&quot;&#39;")
    }
}
