import Foundation
import SkanCompiler
import SkanCore
import SkanRemoteSchema
import SkanRuntime
import SkanSchemaArtifact
import SkanTestSupport
import Testing

/// Game's artifact, as an app that fetched it would hold it.
enum InterpretedGame: InterpretedSchemas {
    static let artifact: SchemaArtifact = {
        let schema = try! ShippedSchemas.compile("Schemas/Game.skan")
        return try! SchemaArtifact(bytes: SchemaArtifact(schema: schema, appID: "1").bytes)
    }()
    static func current() -> SchemaArtifact { artifact }
    static func artifact(named name: String) -> SchemaArtifact? { name == artifact.fileName ? artifact : nil }
}

/// The updater runs an interpreted schema unchanged, and sends what it sends with the generated code: the journey
/// of `EventLoggingTests` (Game's generated type) through `InterpretedState`, update for update, and a relaunch
/// that continues the same activity.
@Suite struct InterpretedUpdaterTests {
    @Test func theInterpretedSchemaSendsWhatTheGeneratedCodeSends() async throws {
        let clock = TestClock()
        let client = RecordingPostbackClient(frameworks: [.adAttributionKit])
        let store = InMemoryConversionValueStore()
        let updater = ConversionValueUpdater<InterpretedState<InterpretedGame>>(
            store: store, client: client, clock: clock)
        let start = try #require(await updater.windowsStart)
        #expect(try await updater.log(.init("sign_up"))?.fineValue == 1)
        clock.set(hours: 3.5, after: start)
        #expect(try await updater.log(.init("purchase", amount: 4.99))?.fineValue == 27)
        clock.set(hours: 20, after: start)
        let mid = try await updater.log(.init("purchase", amount: 10))
        #expect(mid == ConversionValueUpdate(window: .first, fineValue: 29, coarseValue: .high, lockWindow: false))
        clock.set(hours: 36, after: start)
        #expect(try await updater.apply()?.lockWindow == true)
        clock.set(hours: 40, after: start)
        #expect(try await updater.log(.init("add_to_cart")) == nil)
        // A relaunch: the kept activity (naming the artifact) continues the same conversion.
        clock.set(hours: 50, after: start)
        let relaunched = ConversionValueUpdater<InterpretedState<InterpretedGame>>(
            store: store, client: client, clock: clock)
        let second = try await relaunched.log(.init("purchase", amount: 40))
        #expect(second == ConversionValueUpdate(window: .second, fineValue: 29, coarseValue: .high, lockWindow: true))
        #expect(await client.updates(through: .adAttributionKit).map(\.fineValue) == [1, 27, 29, 29, 29])
    }
}
