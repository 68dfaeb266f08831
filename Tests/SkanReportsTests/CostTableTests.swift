import Foundation
import SkanPostbacks
import SkanTestSupport
import Testing

@testable import SkanReports

/// A cost file is read strictly (`network,campaign,day,spend,currency`, one currency) and joins only the
/// groupings spend is kept by.
@Suite struct CostTableTests {
    @Test func aCostFileIsReadExactly() throws {
        let table = try CostTable(
            csv: "\u{FEFF}network,campaign,day,spend,currency\r\none.skadnetwork,5239,2026-12-01,10.5,USD\r\n"
                + "one.skadnetwork,5239,2026-12-02,0.125,USD\r\n\r\n")
        #expect(table.currency == "USD" && table.rows.count == 2)
        #expect(table.rows.map(\.spend.text) == ["10.5", "0.125"] && table.rows.map(\.line) == [2, 3])
        #expect(table.campaign(of: table.rows[0], for: .sourceIdentifier2) == "52")
        // A campaign as the network defines it: the finer digits fold into the first two.
        #expect(table.campaign(of: table.rows[0], for: .campaign) == "52")
        #expect(table.campaign(of: table.rows[0], for: .sourceIdentifier) == "5239")
    }

    @Test(
        arguments: [
            ("network,campaign,spend\nn,1,1\n", "the header is network,campaign,day,spend,currency", 1),
            ("network,campaign,day,spend,currency\n", "no row of spend", nil),
            ("network,campaign,day,spend,currency\nn,52,2026-13-01,1,USD\n", "the day is written 2026-12-03", 2),
            ("network,campaign,day,spend,currency\nn,52,2026-02-30,1,USD\n", "the day is written 2026-12-03", 2),
            ("network,campaign,day,spend,currency\nn,52,0000-01-01,1,USD\n", "the day is written 2026-12-03", 2),
            ("network,campaign,day,spend,currency\nn,52,2026-12-01,-1,USD\n", "the spend is an amount", 2),
            ("network,campaign,day,spend,currency\nn,52,2026-12-01,1e3,USD\n", "the spend is an amount", 2),
            ("network,campaign,day,spend,currency\nn,52,2026-12-01,1,usd\n", "ISO 4217 code", 2),
            ("network,campaign,day,spend,currency\n,52,2026-12-01,1,USD\n", "name the network", 2),
            ("network,campaign,day,spend,currency\nn,52,2026-12-01,1,USD\nn,52,2026-12-02,1,EUR\n", "convert it", nil),
            ("network,campaign,day,spend,currency\nn,52,2026-12-01,1\n", "a row has 5 cells", 2),
            ("network,campaign,day,spend,currency\nn,52,2026-12-01,1,ZZZ\n", "ISO 4217 code", 2),
            ("network,campaign,day,spend,currency\nn,25x9,2026-12-01,1,USD\n", "the campaign is the digits", 2),
            ("network,campaign,day,spend,currency\nn,52,2026-12-01,1,USD\nn,52,2026-12-01,2,USD\n", "line 2", 3),
            ("network,campaign,day,spend,currency\nn,52,2026-12-01,1,USD\nn,\"52\"x,2026-12-01,1,USD\n", "not CSV", 3),
        ] as [(String, String, Int?)])
    func aBadCostFileSaysWhereAndWhat(_ text: String, _ message: String, _ line: Int?) {
        do {
            _ = try CostTable(csv: text)
            Issue.record("read: \(text)")
        } catch {
            #expect(error.message.contains(message), "\(error.message)")
            #expect(error.line == line)
        }
    }

    @Test func spendJoinsTheNetworkACampaignAndTheDayOnly() {
        #expect(CostTable.problem(with: [.adNetworkID, .campaign]) == nil)
        #expect(CostTable.problem(with: [.day, .adNetworkID, .sourceIdentifier2]) == nil)
        #expect(CostTable.problem(with: [.campaign]) != nil)
        #expect(CostTable.problem(with: [.adNetworkID, .campaign, .countryCode]) != nil)
        #expect(CostTable.problem(with: [.adNetworkID, .campaign, .sourceIdentifier2]) != nil)
    }
}

/// Every cost file in Fuzz/Regressions/cost, read or refused at a line inside it.
@Suite struct CostFuzzRegressionTests {
    @Test func costInputsStillPass() throws {
        for url in try Paths.regressionInputs("cost") {
            let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
            do {
                let table = try CostTable(csv: text)
                #expect(!table.rows.isEmpty)
            } catch {
                #expect(error.line.map { $0 <= text.utf8.count { $0 == 10 } + 1 } ?? true, "\(url.lastPathComponent)")
            }
        }
    }
}
