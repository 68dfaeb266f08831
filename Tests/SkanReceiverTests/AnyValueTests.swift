import SkanCompiler
import SkanCore
import SkanSchema
import Testing

@testable import SkanReceiver

@Suite struct AnyValueTests {
    /// The receiver builds its schema of six flags from the model (it links no compiler); it must be the schema
    /// the language writes for it, so that statuses without `--schema` are a schema's statuses.
    @Test func theReceiversAnyValueSchemaIsTheOneTheLanguageWrites() throws {
        let text =
            "schema AnyValue\nversion 1\n"
            + (0..<6).map { "flag bit\($0) at bit \($0)\n" }.joined() + "coarse { low otherwise }\n"
        let compiled = try #require(SchemaCompiler.compile(text).schema)
        let built = try #require(Receiver.anyValue.schemas.first)
        #expect(built.fields == compiled.fields)
        #expect(built.reservedBits == compiled.reservedBits && built.unusedBits == compiled.unusedBits)
        #expect(built.lockByWindow == compiled.lockByWindow)
        for window in ConversionWindow.allCases {
            #expect(built.coarseRulesByWindow[window].map(\.value) == compiled.coarseRulesByWindow[window].map(\.value))
            #expect(
                built.coarseRulesByWindow[window].map(\.condition)
                    == compiled.coarseRulesByWindow[window].map(\.condition))
        }
        #expect(built.validStates == compiled.validStates)
    }
}
