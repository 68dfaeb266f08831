import Foundation
import SkanCrypto
import SkanRemoteSchema
import SkanSchemaArtifact

// The cost of a schema over the air, for Benchmarks/remote_schemas.py: per logged event, the interpreted state
// (`InterpretedState`, from Game's artifact) against the type the build plugin generates from Game.skan (a copy
// of Schemas/Game.skan, checked equal at start), both asked after each event what the updater asks (fine value,
// the window's coarse value and lock); then the time to verify a signed manifest and to read an artifact.
// usage: remote-schema-benchmark GAME_ARTIFACT.json MANIFEST.jws PUBLIC_KEY.pem SCHEMAS_DIR [ROUNDS]
let arguments = CommandLine.arguments
guard arguments.count >= 5 else {
    FileHandle.standardError.write(
        Data(
            "usage: remote-schema-benchmark GAME_ARTIFACT.json MANIFEST.jws PUBLIC_KEY.pem SCHEMAS_DIR [ROUNDS]\n".utf8)
    )
    exit(64)
}
let rounds = arguments.count > 5 ? Int(arguments[5]) ?? 3 : 3
let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
guard
    FileManager.default.contents(atPath: here.appendingPathComponent("Game.skan").path)
        == FileManager.default.contents(atPath: arguments[4] + "/Game.skan"),
    benchmarkArtifact.schema.name == "Game", benchmarkArtifact.schema.version == Game.schemaVersion
else {
    FileHandle.standardError.write(
        Data("remote-schema-benchmark: Game.skan here differs from Schemas/Game.skan\n".utf8))
    exit(1)
}

/// One logged event of a journey, as both sides take it.
struct Step {
    var event: Game.Event
    var name: String
    var amount: Double?
    var hour: Double
}

// 2,000 conversions of 60 events over 35 days (a fixed seed): the events Game declares, amounts in cents.
func next(_ seed: inout UInt64) -> UInt64 {
    seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return seed >> 33
}
var seed: UInt64 = 0x5DEE_CE66
let journeys: [[Step]] = (0..<2000).map { _ in
    var hour = 0.0
    return (0..<60).map { _ in
        hour += Double(next(&seed) % 1400) / 100
        let amount = Double(next(&seed) % 10_000) / 100
        switch next(&seed) % 6 {
        case 0: return Step(event: .sign_up, name: "sign_up", amount: nil, hour: hour)
        case 1: return Step(event: .level_complete, name: "level_complete", amount: nil, hour: hour)
        case 2: return Step(event: .view_item, name: "view_item", amount: nil, hour: hour)
        case 3: return Step(event: .add_to_cart, name: "add_to_cart", amount: nil, hour: hour)
        case 4: return Step(event: .purchase(amount: amount), name: "purchase", amount: amount, hour: hour)
        default: return Step(event: .ad_revenue(amount: amount), name: "ad_revenue", amount: amount, hour: hour)
        }
    }
}
let events = journeys.reduce(0) { $0 + $1.count }

/// The window an hour falls in (nil after the third), as the updater finds it.
func windowNumber(_ hour: Double) -> Int? { hour < 48 ? 1 : hour < 168 ? 2 : hour < 840 ? 3 : nil }

/// Runs every journey through the generated type; returns a checksum of every answer.
func generated() -> Int {
    var sum = 0
    for journey in journeys {
        var game = Game()
        for step in journey {
            game.log(step.event, at: step.hour)
            sum &+= game.fineValue
            if let number = windowNumber(step.hour), let window = Game.Window(number: number) {
                sum &+= game.coarseValue(in: window).rawValue.utf8.count &+ (game.shouldLock(in: window) ? 7 : 0)
            }
        }
    }
    return sum
}

/// The same through the interpreter.
func interpreted() -> Int {
    var sum = 0
    for journey in journeys {
        var state = InterpretedState<BenchmarkSchemas>()
        for step in journey {
            state.log(.init(step.name, amount: step.amount), at: step.hour)
            sum &+= state.fineValue
            if let number = windowNumber(step.hour),
                let window = InterpretedState<BenchmarkSchemas>.Window(
                    number: number)
            {
                sum &+= state.coarseValue(in: window).rawValue.utf8.count &+ (state.shouldLock(in: window) ? 7 : 0)
            }
        }
    }
    return sum
}

/// The best of `rounds` runs of `body`, in seconds, and its result.
func best<T>(_ body: () -> T) -> (seconds: Double, result: T) {
    var fastest = Double.infinity
    var result = body()
    for _ in 0..<rounds {
        let start = DispatchTime.now().uptimeNanoseconds
        result = body()
        fastest = min(fastest, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    return (fastest, result)
}

// The two sides take turns, a round each, so that a machine that slows down for a while slows both alike.
var fast = (seconds: Double.infinity, result: generated())
var slow = (seconds: Double.infinity, result: interpreted())
for _ in 0..<rounds {
    for side in [0, 1] {
        let start = DispatchTime.now().uptimeNanoseconds
        let result = side == 0 ? generated() : interpreted()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        if side == 0 {
            fast = (min(fast.seconds, seconds), result)
        } else {
            slow = (min(slow.seconds, seconds), result)
        }
    }
}
guard fast.result == slow.result else {
    print("the interpreter and the generated type disagree: checksums \(slow.result) and \(fast.result)")
    exit(1)
}
let perGenerated = fast.seconds / Double(events) * 1e9
let perInterpreted = slow.seconds / Double(events) * 1e9
print(
    "per logged event (\(events) events): generated \(String(format: "%.0f", perGenerated)) ns, interpreted "
        + "\(String(format: "%.0f", perInterpreted)) ns, \(String(format: "%.2f", perInterpreted / perGenerated))x")

// A signed manifest verified (signature, canonical payload), and the artifact read back (hash, form, bits).
guard let jws = FileManager.default.contents(atPath: arguments[2]).map({ [UInt8]($0) }),
    let pem = try? String(contentsOfFile: arguments[3], encoding: .utf8),
    let der = RemoteSchemaSource.Configuration.publicKey(pem: pem), let key = ECDSAPublicKey(der: der),
    let artifactBytes = FileManager.default.contents(atPath: arguments[1]).map({ [UInt8]($0) })
else {
    print("the manifest, key or artifact could not be read")
    exit(1)
}
let count = 200
let verify = best { () -> Int in
    (0..<count).filter { _ in (try? SignedManifest(jws: jws, publicKey: key)) != nil }.count
}
let read = best { () -> Int in
    (0..<count).filter { _ in (try? SchemaArtifact(bytes: artifactBytes)) != nil }.count
}
guard verify.result == count, read.result == count else {
    print("the manifest did not verify, or the artifact did not read")
    exit(1)
}
print(
    "manifest verification: \(String(format: "%.0f", verify.seconds / Double(count) * 1e6)) us; artifact read "
        + "(\(artifactBytes.count) bytes): \(String(format: "%.0f", read.seconds / Double(count) * 1e6)) us")
