import Foundation
import SkanCore
import SkanLanguageServer
import Testing

/// Hover, go to definition, references and document symbols on flags, fields, cases and events.
@Suite struct NamesTests {
    static let schema = """
        schema Names
        version 1

        event purchase value USD
        event level_up

        flag paid at bit 0 "Paid — ✓" when purchase

        field stage at bits 1...2 "Stage" {
          whale = 2 when purchase.sum >= 100
          buyer = 1 when purchase
          none  = 0 otherwise
        }

        reserved bits 3...5

        coarse window 1 {
          high   when stage == whale
          medium when paid
          low    otherwise
        }

        coarse windows 2...3 {
          low otherwise
        }

        lock window 1 when stage >= buyer

        """

    /// The position of the `occurrence`-th `word` on 0-based `line`, in UTF-16 units.
    static func at(_ line: Int, _ word: String, occurrence: Int = 1, in document: String = schema) -> String {
        let text = document.split(separator: "\n", omittingEmptySubsequences: false)[line]
        var from = text.startIndex
        var found = text.startIndex
        for _ in 0..<occurrence {
            found = text[from...].range(of: word)!.lowerBound
            from = text.index(after: found)
        }
        let character = text[..<found].utf16.count
        return
            #""textDocument": {"uri": "file:///schema.skan"}, "position": {"line": \#(line), "character": \#(character)}"#
    }

    static func session() -> ServerSession {
        var session = ServerSession.initialized()
        _ = session.open(schema)
        return session
    }

    static func hover(_ session: inout ServerSession, _ position: String) -> String? {
        session.request("textDocument/hover", "{\(position)}")?["result"]?["contents"]?["value"]?.string
    }

    /// The hover of the field `stage`: its bits, each case's code and fine value, who reads it.
    static let stageHover = """
        **stage**: field, bits 1...2 ("Stage")

        - `whale` = 2 → fine value +4: `when purchase.sum >= 100`
        - `buyer` = 1 → fine value +2: `when purchase`
        - `none` = 0 → fine value +0: `otherwise`

        Read by: `coarse window 1`, `lock window 1`
        """

    @Test func hoverStillSaysWhatANameIsWhileAnotherLineHasAnError() {
        var session = ServerSession.initialized()
        let broken = Self.schema.replacingOccurrences(
            of: "high   when stage == whale", with: "high   when stage == whael")
        #expect(session.open(broken).count == 1)
        #expect(
            Self.hover(&session, Self.at(17, "stage")) == Self.stageHover)
        #expect(
            Self.hover(&session, Self.at(18, "paid"))?.hasPrefix("**paid**: flag, bit 0: set → fine value +1") == true)
        #expect(Self.hover(&session, Self.at(3, "purchase"))?.hasPrefix("**purchase**: event, amounts in USD") == true)
        // Bits no fine value has are not shown as if they were.
        _ = session.open("schema B\nversion 1\nfield f at bits 4...9 { a = 0 }\n", uri: "file:///b.skan")
        let hover = session.request(
            "textDocument/hover",
            #"{"textDocument": {"uri": "file:///b.skan"}, "position": {"line": 2, "character": 7}}"#)
        #expect(hover?["result"]?["contents"]?["value"]?.string == "**f**: field")
    }

    @Test func hoverSaysBitsCodesAndWhoReadsIt() {
        var session = Self.session()
        #expect(
            Self.hover(&session, Self.at(17, "stage")) == Self.stageHover)
        #expect(
            Self.hover(&session, Self.at(18, "paid"))
                == "**paid**: flag, bit 0: set → fine value +1\n\nSet when `purchase`\n\nRead by: `coarse window 1`")
        #expect(
            Self.hover(&session, Self.at(3, "purchase"))
                == "**purchase**: event, amounts in USD\n\nRead by: `flag paid`, `field stage`")
        #expect(
            Self.hover(&session, Self.at(17, "whale"))?.hasPrefix(
                "**whale**: case of stage, code 2 in bits 1...2 → fine value +4") == true)
        #expect(
            session.request("textDocument/hover", "{\(Self.at(17, "when"))}")?["result"].map {
                if case .null = $0 { true } else { false }
            } == true)
    }

    /// What decides a postback's meaning: a bucket field's source and ranges, case descriptions, a case's rule.
    @Test func hoverShowsSourcesRangesRulesAndDescriptions() {
        var session = ServerSession.initialized()
        _ = session.open(
            """
            schema H
            version 1
            event purchase value USD
            field spend at bits 0...1 "Spend" buckets amount of purchase within 48 hours {
              none  = 0 0..<0.01
              small = 1 0.01..<5 "under $5"
              big   = 2 5...
            }
            coarse { low when spend >= small  medium otherwise }

            """, uri: "file:///h.skan")
        func hover(_ line: Int, _ character: Int) -> String? {
            session.request(
                "textDocument/hover",
                #"{"textDocument": {"uri": "file:///h.skan"}, "position": {"line": \#(line), "character": \#(character)}}"#
            )?["result"]?["contents"]?["value"]?.string
        }
        #expect(
            hover(3, 7) == """
                **spend**: field, bits 0...1 ("Spend")

                Measures `buckets amount of purchase within 48 hours`

                - `none` = 0 → fine value +0: `0..<0.01`
                - `small` = 1 → fine value +1: `0.01..<5` "under $5"
                - `big` = 2 → fine value +2: `5...`

                Read by: `coarse`
                """)
        #expect(
            hover(8, 28)?.hasSuffix("\n\n`0.01..<5` \"under $5\"\n\nRead by: `coarse`") == true, "\(hover(8, 28) ?? "")"
        )
    }

    @Test func definitionGoesToTheDeclaration() {
        var session = Self.session()
        let whale = session.request("textDocument/definition", "{\(Self.at(17, "whale"))}")?["result"]
        #expect(whale?["range"]?["start"]?["line"]?.integer == 9)
        #expect(whale?["range"]?["start"]?["character"]?.integer == 2)
        #expect(whale?["range"]?["end"]?["character"]?.integer == 7)
        // After the dash and the check mark in the description, `purchase` is still found, in UTF-16 units.
        let event = session.request("textDocument/definition", "{\(Self.at(6, "purchase"))}")?["result"]
        #expect(event?["range"]?["start"]?["line"]?.integer == 3)
        // `purchase.sum`: the event, not its member.
        let member = session.request("textDocument/definition", "{\(Self.at(9, "sum"))}")?["result"]
        #expect(member.map { if case .null = $0 { true } else { false } } == true)
    }

    @Test func referencesListEveryUse() {
        var session = Self.session()
        func lines(_ include: Bool) -> [Int] {
            let params = "{\(Self.at(26, "buyer")), \"context\": {\"includeDeclaration\": \(include)}}"
            guard case .array(let locations)? = session.request("textDocument/references", params)?["result"] else {
                return []
            }
            return locations.compactMap { $0["range"]?["start"]?["line"]?.integer }
        }
        #expect(lines(true) == [10, 26])
        #expect(lines(false) == [26])
        let purchase = session.request("textDocument/references", "{\(Self.at(3, "purchase"))}")?["result"]
        guard case .array(let uses)? = purchase else {
            Issue.record("no references")
            return
        }
        #expect(uses.compactMap { $0["range"]?["start"]?["line"]?.integer } == [3, 6, 9, 10])
    }

    @Test func highlightsMarkTheDeclarationAsTheWrite() {
        var session = Self.session()
        let answer = session.request("textDocument/documentHighlight", "{\(Self.at(17, "stage"))}")?["result"]
        guard case .array(let highlights)? = answer else {
            Issue.record("no highlights")
            return
        }
        #expect(
            highlights.map { "\($0["range"]?["start"]?["line"]?.integer ?? -1):\($0["kind"]?.integer ?? 0)" } == [
                "8:3", "17:2", "26:2",
            ])
    }

    @Test func declarationsOverSeveralLinesAndCommentRunsFold() {
        var session = Self.session()
        func folds(_ uri: String) -> [String] {
            let answer = session.request("textDocument/foldingRange", #"{"textDocument": {"uri": "\#(uri)"}}"#)
            guard case .array(let ranges)? = answer?["result"] else { return [] }
            return ranges.map {
                "\($0["startLine"]?.integer ?? -1)-\($0["endLine"]?.integer ?? -1)"
                    + ($0["kind"]?.string.map { " " + $0 } ?? "")
            }
        }
        #expect(folds("file:///schema.skan") == ["8-12", "16-20", "22-24"])
        _ = session.open("# Notes\n# more\nschema C\nversion 1\n# one line\nflag a at bit 0\n", uri: "file:///c.skan")
        #expect(folds("file:///c.skan") == ["0-1 comment"])
    }

    @Test func documentSymbolsNestCasesInTheirField() throws {
        var session = Self.session()
        let result = session.request(
            "textDocument/documentSymbol", #"{"textDocument": {"uri": "file:///schema.skan"}}"#)?["result"]
        guard case .array(let symbols)? = result else {
            Issue.record("no symbols")
            return
        }
        // Every declaration, the coarse and lock blocks too, each over its whole extent with its name selected.
        #expect(
            symbols.compactMap { $0["name"]?.string } == [
                "purchase", "level_up", "paid", "stage", "coarse window 1", "coarse windows 2...3", "lock window 1",
            ])
        #expect(symbols.compactMap { $0["kind"]?.integer } == [24, 24, 8, 8, 3, 3, 12])
        func lines(_ symbol: JSONDocument, _ member: String) -> [Int?] {
            [symbol[member]?["start"]?["line"]?.integer, symbol[member]?["end"]?["line"]?.integer]
        }
        #expect(lines(symbols[3], "range") == [8, 12] && lines(symbols[3], "selectionRange") == [8, 8])
        #expect(symbols[3]["range"]?["end"]?["character"]?.integer == 1)
        #expect(symbols[4]["range"]?["start"]?["line"]?.integer == 16 && lines(symbols[4], "range") == [16, 20])
        // `flag paid ... "Paid — ✓" when purchase`: to the end of the line, in UTF-16 units.
        #expect(symbols[2]["range"]?["end"]?["character"]?.integer == 43)
        guard case .array(let cases)? = symbols[3]["children"] else {
            Issue.record("no cases")
            return
        }
        #expect(cases.compactMap { $0["name"]?.string } == ["whale", "buyer", "none"])
        #expect(cases.first?["detail"]?.string == "case of stage, code 2 in bits 1...2 → fine value +4")
    }
}
