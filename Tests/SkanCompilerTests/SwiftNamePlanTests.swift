import SkanCore
import Testing

@testable import SkanCompiler

/// How the generator resolves a name it needs for itself: trailing underscores until free, names that need no
/// change first.
@Suite struct SwiftNamePlanTests {
    static func plan(_ text: String) throws -> SwiftNamePlan {
        let result = SchemaCompiler.compile(text)
        return SwiftNamePlan(schema: try #require(result.schema, "\(result.diagnostics.map(\.message))"))
    }

    @Test func aNameTheGeneratedCodeNeedsGetsAnUnderscore() throws {
        let plan = try Self.plan(
            """
            schema Funnel version 1
            event _
            event __
            event index
            flag activity at bit 0
            flag Activity_ at bit 1
            field funnel at bits 2...3 { rawValue = 0  allCases = 1  _ = 2  none = 3 }
            field event at bits 4...5 { a = 0 }
            coarse { high when _ and index  low otherwise }
            """)
        #expect(plan.typeName == "Funnel")
        #expect(plan.eventCaseNames == ["_": "___", "__": "__", "index": "index_"])
        #expect(plan.propertyNames["activity"] == "activity_")
        #expect(plan.propertyNames["Activity_"] == "Activity_")
        #expect(plan.propertyNames["funnel"] == "funnel")
        #expect(plan.fieldTypeNames == ["funnel": "Funnel_", "event": "Event_"])
        #expect(
            plan.caseNames["funnel"] == ["rawValue": "rawValue_", "allCases": "allCases_", "_": "__", "none": "none"])
    }

    @Test func withoutEventsActivityIsAnOrdinaryName() throws {
        let plan = try Self.plan(
            "schema Swift version 1 flag activity at bit 0 field self at bit 1 { a = 0 } reserved bits 2...5 coarse { low otherwise }"
        )
        #expect(plan.typeName == "Swift_")
        #expect(plan.propertyNames == ["activity": "activity", "self": "self"])
        #expect(plan.fieldTypeNames == ["self": "Self_"])
    }
}
