import Foundation
import SkanCompiler
import SkanCore
import SkanSchema
import SkanSchemaTools
import SkanTestSupport
import Testing

/// `skanc diff` and `check --against` on schemas with events: a changed derivation or coarse rule on events
/// changes the meaning of fine values, so the version must go up.
@Suite struct EventBindingDiffTests {
    static func game(_ replacements: [(String, String)]) throws -> Schema {
        var text = try String(contentsOf: Paths.schemas.appendingPathComponent("Game.skan"), encoding: .utf8)
        for (old, new) in replacements {
            #expect(text.contains(old), "\(old)")
            text = text.replacingOccurrences(of: old, with: new)
        }
        return try #require(SchemaCompiler.compile(text).schema)
    }

    @Test func aChangedScopeOrCoarseRuleOnEventsChangesMeaning() throws {
        let old = try shippedSchema("Game")
        let new = try Self.game([
            ("within 48 hours", "within 24 hours"), ("purchase.count >= 2", "purchase.count >= 3"),
        ])
        let diff = SchemaDiff(old: old, new: new)
        #expect(diff.values.isEmpty)
        #expect(diff.changesMeaning)
        #expect(
            diff.bindings == [
                "`revenue` is now `buckets amount of purchase + ad_revenue within 24 hours`, was `buckets amount of purchase + ad_revenue within 48 hours`",
                "window 2's coarse rules on events and time are now `high when purchase.count >= 3; medium when level_complete.count >= 5; low otherwise`, were `high when purchase.count >= 2; medium when level_complete.count >= 5; low otherwise`",
                "window 3's coarse rules on events and time are now `high when purchase.count >= 3; medium when level_complete.count >= 5; low otherwise`, were `high when purchase.count >= 2; medium when level_complete.count >= 5; low otherwise`",
            ])
        #expect(diff.rendered(.json).contains("\"derived_from\""))
        // The same schema: nothing changes.
        #expect(!SchemaDiff(old: old, new: old).changesMeaning)
        // Schemas of bits alone keep their JSON shape.
        let shop = try shippedSchema("Shop")
        #expect(!SchemaDiff(old: shop, new: shop).rendered(.json).contains("derived_from"))
    }

    @Test func aFieldTheAppSetThatIsNowDerivedIsSaid() throws {
        let old = try Self.game([
            ("flag registered at bit 0 \"Signed up\" when sign_up", "flag registered at bit 0 \"Signed up\"")
        ])
        let diff = SchemaDiff(old: old, new: try shippedSchema("Game"))
        #expect(diff.bindings == ["`registered` is now derived: `when sign_up`; the app set it"])
    }
}
