import Foundation
import SkanCore
import SkanRuntime
import Testing

/// Windows end 48, 168 and 840 hours after first launch (Apple, "Receiving postbacks in multiple
/// conversion windows"), checked one second either side of each end.
@Suite struct ConversionWindowTests {
    let start = Date(timeIntervalSince1970: 1_767_225_600)

    func window(hours: Double, seconds: Double = 0) -> Int? {
        ConversionWindow.window(at: start.addingTimeInterval(hours * 3_600 + seconds), firstLaunch: start)?.number
    }

    @Test func eachWindowEndsOnItsHour() {
        #expect(window(hours: 0) == 1)
        #expect(window(hours: 48, seconds: -1) == 1)
        #expect(window(hours: 48) == 2)
        #expect(window(hours: 48, seconds: 1) == 2)
        #expect(window(hours: 168, seconds: -1) == 2)
        #expect(window(hours: 168) == 3)
        #expect(window(hours: 168, seconds: 1) == 3)
        #expect(window(hours: 840, seconds: -1) == 3)
        #expect(window(hours: 840) == nil)
        #expect(window(hours: 840, seconds: 1) == nil)
    }

    @Test func theOldWholeDayCountIsGone() {
        // Counting whole days put hours 48-72 in window 1 and 168-192 in window 2.
        #expect(window(hours: 50) == 2)
        #expect(window(hours: 71) == 2)
        #expect(window(hours: 170) == 3)
        #expect(window(hours: 191) == 3)
    }

    @Test func aClockSetBackCountsAsTheFirstWindow() {
        #expect(window(hours: -24) == 1)
    }

    @Test func endsAreTheDocumentedHours() {
        #expect(ConversionWindow.ends == [172_800, 604_800, 3_024_000])
    }
}
