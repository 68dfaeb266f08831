import Foundation
import GeneratedPublic
import SkanCore
import SkanRuntime
import Testing

/// A schema's `nothing` rules reach the runtime through the generated `sendsUpdate(in:)`: in such a state the
/// updater sends nothing to either framework, so a window gets no update (and no postback, in windows 2-3).
@Suite struct NothingSentTests {
    @Test func aStateThatSendsNothingSendsNothingInItsWindow() async throws {
        let (updater, client, clock, _) = makeUpdater(Quiet.self)
        let origin = try #require(await updater.windowsStart)
        // Quiet's window 1 sends nothing before sign-up or spend.
        #expect(try await updater.apply() == nil)
        #expect(await client.sent.isEmpty)
        let signedUp = try await updater.record { $0.registered = true }
        #expect(signedUp == ConversionValueUpdate(window: .first, fineValue: 1, coarseValue: .low, lockWindow: false))
        // Windows 2 and 3 send nothing below spend mid: the launch's apply() sends no update.
        clock.set(hours: 50, after: origin)
        #expect(try await updater.apply() == nil)
        #expect(try await updater.record { $0.spend = .low } == nil)
        let spent = try await updater.record { $0.spend = .mid }
        #expect(spent == ConversionValueUpdate(window: .second, fineValue: 5, coarseValue: .high, lockWindow: false))
        for framework in AttributionFramework.allCases {
            #expect(await client.updates(through: framework).map(\.window) == [.first, .second])
        }
    }

    @Test func theGeneratedTypeSaysWhereItSendsNothing() throws {
        var quiet = Quiet()
        #expect(!quiet.sendsUpdate(in: .first) && quiet.coarseUpdate(in: .first) == nil)
        quiet.spend = .high
        #expect(quiet.sendsUpdate(in: .first) && quiet.coarseUpdate(in: .first) == .low && quiet.shouldLock(in: .first))
        #expect(quiet.coarseValue(in: .third) == .high)
    }
}
