import Foundation
import SkanCore
import SkanRuntime

/// What each postback of the device ends up holding, by the rules Apple documents, so that a test sees the effect
/// of the runtime's calls and not only the calls:
///
/// - Every SKAdNetwork update sets the install's SKAdNetwork postback and is copied into AdAttributionKit as
///   `Postback.updateConversionValue(_:lockPostback:)`: no coarse value, no conversion types, no tag
///   (AdAttributionKit, "AdAttributionKit and SKAdNetwork interoperability").
/// - An update without conversion types reaches every type ("Receiving ad attributions and postbacks"); one without
///   a tag updates the most recent conversion of its types ("Identifying conversion values with conversion tags");
///   a tag no conversion has is refused with `invalidConversionTag`.
/// - A locked window ignores later updates; a new conversion locks the active postbacks of the earlier ones, unless
///   the app opted in to overlapping conversions (WWDC25, "What's new in AdAttributionKit").
/// - Whether an update without a coarse value keeps or clears the coarse value a postback holds, Apple does not
///   say: `coarseWithoutValue` chooses, so that a test can require the runtime to be right either way.
final class AttributionModel: @unchecked Sendable {
    /// One postback's values, nil where no update gave one.
    struct Values: Equatable, CustomStringConvertible {
        var fine: Int?
        var coarse: String?
        var locked = false

        var description: String { "fine=\(fine.map(String.init) ?? "-") coarse=\(coarse ?? "-") locked=\(locked)" }
    }

    /// What an update without a coarse value does to the coarse value a postback holds.
    enum CoarseWithoutValue { case kept, cleared }

    /// One AdAttributionKit conversion: the install, or a re-engagement with its tag.
    struct Conversion {
        var reengagement: Bool
        var tag: String?
        var start: Date
        var postbacks: [Int: Values] = [:]
    }

    private let lock = NSLock()
    private var clock: any ConversionClock = SystemClock()
    private var conversions: [Conversion]
    private var skAdNetwork: [Int: Values] = [:]
    private var coarseWithoutValue = CoarseWithoutValue.kept
    private var overlapping = false

    init() {
        conversions = [Conversion(reengagement: false, start: Date())]
    }

    /// Starts over: the install at `firstLaunch`, time read from `clock`.
    func start(
        firstLaunch: Date, clock: any ConversionClock, coarseWithoutValue: CoarseWithoutValue = .kept,
        overlappingConversions: Bool = false
    ) {
        lock.withLock {
            self.clock = clock
            self.coarseWithoutValue = coarseWithoutValue
            overlapping = overlappingConversions
            conversions = [Conversion(reengagement: false, start: firstLaunch)]
            skAdNetwork = [:]
        }
    }

    /// The system creates a re-engagement conversion (the app was opened from a re-engagement ad and no rate limit
    /// or cooldown stood in the way); without the opt-in, the earlier conversions' active postbacks lock.
    func reengage(tag: String?, at date: Date) {
        lock.withLock {
            if !overlapping {
                for index in conversions.indices {
                    for window in ConversionWindow.allCases
                    where ConversionWindow.Schedule.production.window(at: date, since: conversions[index].start)
                        .map({ $0 <= window }) ?? false
                    {
                        conversions[index].postbacks[window.number, default: Values()].locked = true
                    }
                }
            }
            conversions.append(Conversion(reengagement: true, tag: tag, start: date))
        }
    }

    /// The install's postbacks (AdAttributionKit's conversion) by window.
    var install: [Int: Values] { lock.withLock { conversions[0].postbacks } }
    /// The install's SKAdNetwork postbacks by window.
    var skAdNetworkPostbacks: [Int: Values] { lock.withLock { skAdNetwork } }
    /// The postbacks of the re-engagement that started at `date`, by window.
    func reengagement(openedAt date: Date) -> [Int: Values] {
        lock.withLock { conversions.last { $0.reengagement && $0.start == date }?.postbacks ?? [:] }
    }

    /// An SKAdNetwork update, and the AdAttributionKit copy iOS makes of it.
    func skAdNetworkUpdate(fine: Int, coarse: String?, lock locking: Bool) {
        lock.withLock {
            if let window = window(since: conversions[0].start) {
                set(&skAdNetwork, window, fine: fine, coarse: coarse, locking: locking)
            }
        }
        try? adAttributionKitUpdate(fine: fine, coarse: nil, lock: locking, tag: nil, types: nil)
    }

    /// An AdAttributionKit update: to the tagged conversion, or else the most recent one of `types` (any type when
    /// nil).
    func adAttributionKitUpdate(fine: Int, coarse: String?, lock locking: Bool, tag: String?, types: [String]?)
        throws
    {
        try lock.withLock {
            let target: Int?
            if let tag {
                guard let tagged = conversions.lastIndex(where: { $0.tag == tag }) else {
                    throw AdAttributionKitError.invalidConversionTag
                }
                target = tagged
            } else {
                target = conversions.lastIndex { types?.contains($0.reengagement ? "reengagement" : "install") ?? true }
            }
            guard let target, let window = window(since: conversions[target].start) else { return }
            set(&conversions[target].postbacks, window, fine: fine, coarse: coarse, locking: locking)
        }
    }

    private func window(since start: Date) -> Int? {
        ConversionWindow.Schedule.production.window(at: clock.now, since: start)?.number
    }

    private func set(_ postbacks: inout [Int: Values], _ window: Int, fine: Int, coarse: String?, locking: Bool) {
        var values = postbacks[window] ?? Values()
        guard !values.locked else { return }
        values.fine = fine
        if coarse != nil || coarseWithoutValue == .cleared { values.coarse = coarse }
        values.locked = locking
        postbacks[window] = values
    }
}
