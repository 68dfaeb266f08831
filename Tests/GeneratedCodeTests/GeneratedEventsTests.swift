import Foundation
import GeneratedPlatforms
import GeneratedPublic
import SkanCompiler
import SkanCore
import SkanRemoteSchema
import SkanSchema
import SkanTestSupport
import Testing

/// The generated code of every schema with events in the repository (Schemas/Game.skan and each of
/// Schemas/Platforms) against the reference semantics on random activities, and the interpreter an app runs for
/// a schema fetched over the air (`InterpretedState`, from the schema's artifact) against both: after every log
/// and every advance, the same fine value, coarse value and lock as `Schema.evaluate(_:at:)`.
@Suite struct GeneratedEventsTests {
    static var models: [any GeneratedEventSchema.Type] {
        [
            Game.self, Adjust63.self, AdjustConversionEvents.self, AppsFlyerFlexible.self, Datalyr.self, Flurry.self,
            GA4.self, GoogleAds.self, MetaSDK.self, SKANStandardEvents.self, SKANStandardRetention.self,
            SKANStandardRevenue.self,
        ]
    }

    /// Every schema file with events or time has a model here (a new one fails until it is added).
    @Test func everyEventSchemaIsCovered() throws {
        let platforms = try Paths.files(in: Paths.schemas.appendingPathComponent("Platforms"), extension: "skan")
        let files = platforms.map { "Platforms/" + $0.lastPathComponent } + ["Game.skan"]
        #expect(Set(files) == Set(Self.models.map { $0.schemaFile }))
    }

    @Test(arguments: 0..<12, 0..<12)
    func randomJourneysAgreeWithTheReferenceSemantics(_ model: Int, _ seed: Int) throws {
        try Self.check(Self.models[model], seed: seed)
    }

    static func check<Model: GeneratedEventSchema>(_: Model.Type, seed: Int) throws {
        let text = try String(contentsOf: Paths.schemas.appendingPathComponent(Model.schemaFile), encoding: .utf8)
        let schema = try #require(SchemaCompiler.compile(text).schema)
        try #require(schema.events.count == Model.events.count)
        var generator = SplitMix64(seed: UInt64(seed) &* 0x9E37_79B9 &+ UInt64(Model.schemaFile.utf8.count))
        var generated = Model()
        var interpreted = InterpretedState<InterpretedFile<Model>>()
        var activity = Activity()
        var hour = 0.0
        for _ in 0..<Int.random(in: 1...80, using: &generator) {
            // Steps of minutes to days, sometimes landing exactly on a window's end or a scope's hour.
            let edges: [Double] = [24, 36, 48, 96, 120, 168, 840]
            hour =
                Bool.random(using: &generator) && Bool.random(using: &generator)
                ? max(hour, edges.randomElement(using: &generator)!)
                : hour + [0, 0.01, 0.5, 3, 20, 70].randomElement(using: &generator)!
            if schema.events.isEmpty || Int.random(in: 0..<4, using: &generator) == 0 {
                generated.advance(to: hour)
                interpreted.advance(to: hour)
            } else {
                let index = Int.random(in: 0..<schema.events.count, using: &generator)
                let hasValue = schema.events[index].hasValue
                // Amounts on and around the bucket and condition bounds the schemas use, some with fractions of a
                // cent (summed in whole cents) and some that drift as doubles (0.1 + 0.2).
                let amount =
                    hasValue
                    ? [0, 0.01, 0.99, 1, 5, 10, 19.99, 20, 49.99, 50, 100, 110, 250]
                        .randomElement(using: &generator)!
                        + [0, 0.01, 0.02, 0.1, 0.2, 0.7, 0.004, 0.005].randomElement(using: &generator)!
                    : 0
                generated.log(Model.events[index](amount), at: hour)
                interpreted.log(.init(schema.events[index].name, amount: hasValue ? amount : nil), at: hour)
                activity.events.append(LoggedEvent(event: index, hour: hour, amount: hasValue ? amount : nil))
            }
            let expected = schema.evaluate(activity, at: hour)
            let context = "\(Model.schemaFile), seed \(seed), hour \(hour)"
            #expect(generated.fineValue == expected.fineValue, "\(context)")
            #expect(interpreted.fineValue == expected.fineValue, "interpreted \(context)")
            guard let window = expected.window else { continue }
            let typed = try #require(Model.Window(rawValue: window.number))
            #expect(generated.coarseValue(in: typed).rawValue == expected.coarseValue?.rawValue, "\(context)")
            #expect(generated.shouldLock(in: typed) == expected.lock, "\(context)")
            // Where a `nothing` rule holds, the interpreter sends no update (the updater asks `sendsUpdate`).
            if let coarse = expected.coarseValue {
                #expect(interpreted.coarseValue(in: window) == coarse, "interpreted \(context)")
            } else {
                #expect(!interpreted.sendsUpdate(in: window), "interpreted \(context)")
            }
            #expect(interpreted.shouldLock(in: window) == expected.lock, "interpreted \(context)")
        }
    }

    @Test func decodingStillGivesEachFieldsCase() throws {
        let schema: Schema = try shippedSchema("Game")
        for fine in 0...63 {
            let state = try #require(try? schema.decode(fineValue: fine).get())
            let decoded = try Game(fineValue: fine)
            #expect(decoded.fineValue == fine)
            #expect(decoded.activity == Game.Activity())
            #expect(schema.cases(of: state)[2]?.name == "\(decoded.funnel)")
        }
    }

    @Test func theActivityIsCodableSoAnAppCanKeepIt() throws {
        var game = Game()
        game.log(.purchase(amount: 12.5), at: 3)
        game.log(.level_complete, at: 50)
        let data = try JSONEncoder().encode(game.activity)
        let restored = try JSONDecoder().decode(Game.Activity.self, from: data)
        #expect(restored == game.activity)
        #expect(restored.sums[4] == 12.5)
        #expect(restored.windowStart == 48)
    }
}
