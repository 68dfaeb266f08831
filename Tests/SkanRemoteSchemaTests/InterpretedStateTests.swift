import Foundation
import SkanCompiler
import SkanCore
import SkanRemoteSchema
import SkanRuntime
import SkanSchema
import SkanSchemaArtifact
import SkanTestSupport
import Testing

/// The artifacts a test's conversions use: a new conversion takes `current`; `held` are those still kept. One
/// box per test (tests run in parallel and share nothing).
final class ArtifactBox: @unchecked Sendable {
    private let lock = NSLock()
    private var current: SchemaArtifact?
    private var held: [String: SchemaArtifact] = [:]

    func use(_ artifact: SchemaArtifact) {
        lock.withLock {
            current = artifact
            held[artifact.fileName] = artifact
        }
    }

    var artifact: SchemaArtifact { lock.withLock { current! } }
    func named(_ name: String) -> SchemaArtifact? { lock.withLock { held[name] } }
}

enum JourneySchemas: InterpretedSchemas {
    static let box = ArtifactBox()
    static func current() -> SchemaArtifact { box.artifact }
    static func artifact(named name: String) -> SchemaArtifact? { box.named(name) }
}

enum SafePointSchemas: InterpretedSchemas {
    static let box = ArtifactBox()
    static func current() -> SchemaArtifact { box.artifact }
    static func artifact(named name: String) -> SchemaArtifact? { box.named(name) }
}

/// The interpreter against the reference semantics, on random journeys (events with amounts, app-set fields,
/// hours across the three windows) for every shipped schema, each read back from its artifact; and the safe
/// point: a conversion keeps the version it started with.
@Suite(.serialized) struct InterpretedStateTests {
    @Test func interpretedEqualsTheReferenceOnRandomJourneys() throws {
        var random = SplitMix64(seed: 11)
        var steps = 0
        for path in ShippedSchemas.all {
            let compiled = try ShippedSchemas.compile(path)
            let artifact = try SchemaArtifact(bytes: SchemaArtifact(schema: compiled, appID: "1").bytes)
            let schema = artifact.schema
            JourneySchemas.box.use(artifact)
            for _ in 0..<20 {
                var state = InterpretedState<JourneySchemas>()
                var reference = Activity()
                var hour = 0.0
                for _ in 0..<12 {
                    hour += Double(random.next() % 9000) / 100
                    if !schema.events.isEmpty, random.next() % 3 != 0 {
                        let index = Int(random.next() % UInt64(schema.events.count))
                        let event = schema.events[index]
                        let amount = event.hasValue ? Double(random.next() % 30_000) / 100 : nil
                        state.log(.init(event.name, amount: amount), at: hour)
                        reference.events.append(LoggedEvent(event: index, hour: hour, amount: amount))
                    } else {
                        let settable = schema.fields.indices.filter { schema.fields[$0].derivation == nil }
                        guard let index = settable.randomElement(using: &random) else {
                            state.advance(to: hour)
                            continue
                        }
                        let field = schema.fields[index]
                        let item = field.cases[Int(random.next() % UInt64(field.cases.count))]
                        let didSet = state.set(field.name, to: item.name)
                        #expect(didSet)
                        reference.setCodes[index] = item.code
                        state.advance(to: hour)
                    }
                    let expected = schema.evaluate(reference, at: hour)
                    #expect(state.fineValue == expected.fineValue, "\(path) at hour \(hour)")
                    if let window = expected.window {
                        #expect(state.sendsUpdate(in: window) == expected.sends, "\(path)")
                        #expect(state.shouldLock(in: window) == expected.lock, "\(path)")
                        if let coarse = expected.coarseValue {
                            #expect(state.coarseValue(in: window) == coarse, "\(path)")
                        }
                    }
                    steps += 1
                }
            }
        }
        #expect(steps >= 2_000, "\(steps)")
    }

    @Test func aConversionKeepsTheVersionItStartedWith() throws {
        let v3 = SchemaArtifact(schema: try ShippedSchemas.compile("Schemas/Shop.skan"), appID: "1")
        let text = try String(
            contentsOf: Paths.file("Tests/SkanCompilerTests/Fixtures/ShopMarked.skan"), encoding: .utf8)
        let v4 = SchemaArtifact(
            schema: try #require(SchemaCompiler.compile(text, path: "ShopMarked.skan").schema), appID: "1")
        SafePointSchemas.box.use(v3)
        var started = InterpretedState<SafePointSchemas>()
        let setTier = started.set("paymentTier", to: "medium")
        #expect(setTier)
        let kept = try #require(started.persistedActivity())
        let fine = started.fineValue
        // Version 4 arrives: a new conversion uses it; the one in flight, restored after a relaunch, keeps 3.
        SafePointSchemas.box.use(v4)
        #expect(InterpretedState<SafePointSchemas>().artifact.schema.version == 4)
        // As `ConversionValueUpdater` restores a state: from the fine value (version 4 cannot read version 3's,
        // so a new state), then the kept activity, which names version 3's artifact.
        var relaunched = (try? InterpretedState<SafePointSchemas>(fineValue: fine)) ?? InterpretedState()
        relaunched.restorePersistedActivity(kept)
        #expect(relaunched.artifact.schema.version == 3 && relaunched.fineValue == fine)
        #expect(relaunched == started)
        // What the app logs by name is checked against the schema: an unknown field or case changes nothing.
        let unknownCase = relaunched.set("paymentTier", to: "platinum")
        let unknownField = relaunched.set("nope", to: "x")
        #expect(!unknownCase && !unknownField)
    }
}
