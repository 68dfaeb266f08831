import SkanCompiler
import SkanCore
import SkanSchema
import Testing

@testable import SkanPostbacks

/// A group's key survives encoding whatever its text holds: the separators themselves, digits, NUL, emoji.
@Suite struct GroupKeyTests {
    @Test func keysRoundTripAndStayApart() {
        let texts: [String?] = [nil, "", "!", "3:abc", "5239", "a\u{0}b", "🙂:!", "12", "1", "2:12"]
        var encoded = Set<[UInt8]>()
        for first in texts {
            for second in texts {
                let values = [
                    GroupValue(column: .sourceIdentifier, text: first), GroupValue(column: .countryCode, text: second),
                ]
                let key = PostbackTally.encodedKey(values)
                #expect(PostbackTally.decodedKey(key, groupings: [.sourceIdentifier, .countryCode]) == values)
                encoded.insert(key)
            }
        }
        #expect(encoded.count == texts.count * texts.count, "no two keys encode alike")
    }

    @Test func aCampaignIsItsSourceIdentifierOrItsCampaignID() {
        #expect(PostbackGrouping.campaign.columns == [.sourceIdentifier, .campaignID])
    }

    /// A value is named by its grouping: the rollups and `day` by theirs, `campaign` by the column it came from.
    @Test func valuesAreNamedByTheirGrouping() {
        let key = PostbackTally.encodedKey([
            GroupValue(column: .sourceIdentifier, text: "52"), GroupValue(column: .campaignID, text: "7"),
            GroupValue(column: .receivedAt, text: "2026-12-03"),
        ])
        let names = PostbackTally.decodedKey(key, groupings: [.sourceIdentifier2, .campaign, .day]).map(\.name)
        #expect(names == ["source_identifier_2", "campaign_id", "day"])
        #expect(PostbackGrouping.sourceIdentifier3.keyNames == ["source_identifier_3"])
        #expect(PostbackGrouping.campaign.keyNames == ["source_identifier", "campaign_id"])
    }
}
