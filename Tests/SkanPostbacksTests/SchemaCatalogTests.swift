import Foundation
import SkanCompiler
import SkanCore
import SkanSchema
import SkanTestSupport
import Testing

@testable import SkanPostbacks

/// The reader over a catalog of several apps: each line's fine value checked and decoded by its own app's schema
/// (SKAdNetwork's `app-id`, AdAttributionKit's `advertised-item-identifier` inside the signed payload), the rest
/// `unknown-app`, unless a problem that comes first in precedence (a missing `app-id`) says more.
@Suite struct SchemaCatalogTests {
    static func line(app: String?, fine: Int) -> String {
        let appMember = app.map { #""app-id":\#($0),"# } ?? ""
        return #"{"version":"4.0","ad-network-id":"a.skadnetwork","source-identifier":"1234",\#(appMember)"#
            + #""transaction-id":"\#(UUID().uuidString)","redownload":false,"fidelity-type":1,"did-win":true,"#
            + #""postback-sequence-index":0,"conversion-value":\#(fine)}"#
    }

    @Test func eachLineIsCheckedByItsOwnAppsSchema() throws {
        let (game, shop) = (try shippedSchema("Game"), try shippedSchema("Shop"))
        let catalog = SchemaCatalog(apps: [111: LiveVersions([game]), 222: LiveVersions([shop])])
        // A fine value valid in one schema and not the other: Game uses every bit, Shop leaves bit 5 unused.
        let fine = 0b10_0000
        #expect((try? game.decode(fineValue: fine).get()) != nil && (try? shop.decode(fineValue: fine).get()) == nil)
        let lines = [
            Self.line(app: "111", fine: fine), Self.line(app: "222", fine: fine), Self.line(app: "333", fine: 1),
            Self.line(app: nil, fine: 1), Self.line(app: "\"111\"", fine: 1),
        ]
        let output = ByteArrayOutput()
        let reader = PostbackReader(
            catalog: catalog, options: PostbackReader.Options { ($0.format, $0.verification) = (.jsonl, nil) },
            output: output)
        var input = ByteArrayInput(Array((lines.joined(separator: "\n") + "\n").utf8), chunk: 1 << 16)
        try reader.read(&input, name: "test")
        let rows = try output.bytes.split(separator: 0x0A).map {
            try #require(try JSONSerialization.jsonObject(with: Data($0)) as? [String: Any])
        }
        #expect(
            rows.map { $0["status"] as? String } == [
                "ok", "invalid-fine", "unknown-app", "missing-field", "wrong-type",
            ])
        #expect(rows[0]["levels"] as? String == "some" && rows[0]["schema_version"] as? Int == game.version)
        #expect(rows[1]["schema_version"] is NSNull && rows[1]["levels"] is NSNull)
        #expect(reader.summary.count(of: .unknownApp) == 1 && reader.summary.fineValues == 1)
        #expect(reader.summary.caseCounts(of: game, app: 0)[game.fieldIndex(named: "levels")!] == [0, 1])
    }

    @Test func aCatalogOfOneSchemaRoutesNothing() throws {
        let shop = try shippedSchema("Shop")
        let catalog = SchemaCatalog(LiveVersions([shop]))
        #expect(!catalog.routesByApp && !catalog.saysVersion && catalog.index(ofApp: nil) == 0)
        #expect(catalog.index(ofApp: 999) == 0)
        let routed = SchemaCatalog(apps: [5: LiveVersions([shop])])
        #expect(
            routed.routesByApp && routed.saysVersion && routed.index(ofApp: 5) == 0 && routed.index(ofApp: 6) == nil)
    }
}
