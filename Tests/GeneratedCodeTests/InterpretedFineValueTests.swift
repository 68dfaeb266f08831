import GeneratedPublic
import SkanCore
import SkanRemoteSchema
import Testing

/// The interpreter an app runs for a fetched schema against the generated type of the same schema, for every
/// fine value 0...63 (and a few outside): the same values accepted, and in every window the same coarse value
/// and lock. (`GeneratedCodeTests` holds the generated types to the reference semantics.)
@Suite struct InterpretedFineValueTests {
    enum Shop: SchemaFileSource { static let schemaPath = "Schemas/Shop.skan" }
    enum EventFlags: SchemaFileSource { static let schemaPath = "Schemas/EventFlags.skan" }
    enum Subscription: SchemaFileSource { static let schemaPath = "Schemas/Subscription.skan" }
    enum Torture: SchemaFileSource { static let schemaPath = "Tests/SkanCompilerTests/Fixtures/Torture.skan" }
    enum ShopMarked: SchemaFileSource {
        static let schemaPath = "Tests/SkanCompilerTests/Fixtures/ShopMarked.skan"
    }

    func agree<T: GeneratedState, Source: SchemaFileSource>(_: T.Type, _: Source.Type) {
        var compared = 0
        for fine in -2...66 {
            let generated = try? T(fineValue: fine)
            let interpreted = try? InterpretedState<InterpretedFile<Source>>(fineValue: fine)
            #expect((generated == nil) == (interpreted == nil), "\(Source.schemaPath): \(fine) accepted by one only")
            guard let generated, let interpreted else { continue }
            compared += 1
            #expect(interpreted.fineValue == generated.fineValue)
            for window in ConversionWindow.allCases {
                let typed = T.Window(rawValue: window.number)!
                #expect(
                    interpreted.coarseValue(in: window).rawValue == generated.coarseValue(in: typed).rawValue,
                    "\(Source.schemaPath): coarse value of \(fine) in window \(window)")
                #expect(
                    interpreted.shouldLock(in: window) == generated.shouldLock(in: typed),
                    "\(Source.schemaPath): lock of \(fine) in window \(window)")
            }
        }
        #expect(compared > 0)
    }

    @Test func everyFineValueOfEveryBitSchemaAgrees() {
        agree(GeneratedPublic.Shop.self, Shop.self)
        agree(GeneratedPublic.EventFlags.self, EventFlags.self)
        agree(GeneratedPublic.Subscription.self, Subscription.self)
        agree(GeneratedPublic.`Protocol`.self, Torture.self)
        agree(GeneratedPublic.ShopMarked.self, ShopMarked.self)
    }
}
