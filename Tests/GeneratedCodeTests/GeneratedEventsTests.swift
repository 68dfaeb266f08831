import Foundation
import GeneratedPublic
import SkanCompiler
import SkanCore
import SkanTestSupport
import Testing

/// The generated code of a schema with events (Schemas/Game.skan, the public golden) against the reference
/// semantics on random activities: after every log and every advance, the same fine value, coarse value and lock
/// as `Schema.evaluate(_:at:)`.
@Suite struct GeneratedEventsTests {
    let schema: Schema = try! shippedSchema("Game")

    /// The generated event for the schema's event `index`, with `amount` for value events.
    static func event(_ index: Int, amount: Double) -> Game.Event {
        switch index {
        case 0: .sign_up
        case 1: .level_complete
        case 2: .view_item
        case 3: .add_to_cart
        case 4: .purchase(amount: amount)
        default: .ad_revenue(amount: amount)
        }
    }

    @Test(arguments: 0..<40)
    func randomJourneysAgreeWithTheReferenceSemantics(_ seed: Int) {
        var generator = SplitMix64(seed: UInt64(seed) &* 0x9E37_79B9 &+ 11)
        var generated = Game()
        var activity = Activity()
        var hour = 0.0
        for _ in 0..<Int.random(in: 1...60, using: &generator) {
            // Steps of minutes to days, sometimes landing exactly on a window's end or a scope's hour.
            let edges: [Double] = [24, 36, 48, 168, 840]
            hour =
                Bool.random(using: &generator) && Bool.random(using: &generator)
                ? max(hour, edges.randomElement(using: &generator)!)
                : hour + [0, 0.01, 0.5, 3, 20, 70].randomElement(using: &generator)!
            if Int.random(in: 0..<4, using: &generator) == 0 {
                generated.advance(to: hour)
            } else {
                let index = Int.random(in: 0..<schema.events.count, using: &generator)
                let amount =
                    schema.events[index].hasValue ? Double(Int.random(in: 0...3000, using: &generator)) / 100 : 0
                generated.log(Self.event(index, amount: amount), at: hour)
                activity.events.append(
                    LoggedEvent(event: index, hour: hour, amount: schema.events[index].hasValue ? amount : nil))
            }
            let expected = schema.evaluate(activity, at: hour)
            #expect(generated.fineValue == expected.fineValue, "seed \(seed), hour \(hour)")
            guard let window = expected.window else { continue }
            let typed = Game.Window(rawValue: window.number)!
            #expect(
                generated.coarseValue(in: typed).rawValue == expected.coarseValue?.rawValue,
                "seed \(seed), hour \(hour)")
            #expect(generated.shouldLock(in: typed) == expected.lock, "seed \(seed), hour \(hour)")
        }
    }

    @Test func decodingStillGivesEachFieldsCase() throws {
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
