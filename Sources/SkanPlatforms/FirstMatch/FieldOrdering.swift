import SkanCore
import SkanSchema

/// A field's cases in the order a first-match list tries them, each with the condition that selects it: for
/// flags and first-match fields the order written; for buckets and counts from the highest down, each with its
/// lower bound (`purchase.sum >= 20`), the lowest with none. The first that holds is the field's case, so a
/// list needs no upper bounds, and skanc's `a..<b` needs no inclusive bound the platform would count the other
/// way.
struct FieldOrdering {
    /// Codes and their conditions, tried in order; the last always holds.
    var choices: [(code: Int, condition: Condition)]
    /// What the ordering could not say of the field.
    var losses: [ExportLoss.Kind]

    /// The ordering of `field` in `window`, on a platform with a clock (`allowsTime`: Google Ads' time post
    /// install, where `count of days` is `hours >= 24 * k`) or without one (GA4). In window 1, `within N hours`
    /// from hour 48 on and `in window` count what a count since first launch counts.
    /// `units` gives each event's minor units per whole unit (`Event.unitsPerWhole`): amounts are whole minor
    /// units, so buckets `...4.99` and `5...` of USD have no amount between them.
    init(field: Field, window: ConversionWindow, allowsTime: Bool, units: [Double?] = []) {
        losses = []
        switch field.derivation {
        case nil:
            // The app sets it: no event decides, so only its first case can be listed.
            losses = [.appSet(field: field.name)]
            choices = [(field.cases.first?.code ?? 0, .always)]
        case .flag(let condition)?:
            choices = [(1, condition), (0, .always)]
        case .firstMatch(let conditions)?:
            choices = zip(field.cases, conditions).map { ($0.code, $1) }
        case .buckets(let source)?:
            if source.measure == .days, allowsTime {
                let bucketed = field.cases.filter { $0.bucket != nil }.sorted { $0.bucket!.lower > $1.bucket!.lower }
                choices = bucketed.enumerated().map { position, bucketCase in
                    position == bucketed.count - 1
                        ? (bucketCase.code, .always)
                        : (bucketCase.code, .hours(.greaterOrEqual, 24 * bucketCase.bucket!.lower.rounded(.up)))
                }
                return
            }
            let event = Self.event(of: source, field: field, window: window, losses: &losses)
            let bucketed = field.cases.filter { $0.bucket != nil }.sorted { $0.bucket!.lower < $1.bucket!.lower }
            let unit =
                source.measure == .amount
                ? source.events.first.flatMap { units.indices.contains($0) ? units[$0] : nil } : nil
            if source.measure != .days, Self.hasGap(bucketed, counts: source.measure == .count, unit: unit) {
                losses.append(.bucketGap(field: field.name))
            }
            choices = bucketed.reversed().enumerated().map { position, bucketCase in
                position == bucketed.count - 1 || event == nil
                    ? (bucketCase.code, .always)
                    : (
                        bucketCase.code,
                        .eventMeasure(
                            event: event!, source.measure == .amount ? .sum : .count, .greaterOrEqual,
                            bucketCase.bucket!.lower)
                    )
            }
            if event == nil { choices = [choices.last ?? (0, .always)] }
        case .count(let source)?:
            if source.measure == .days, allowsTime {
                choices = (0...field.bits.maximumCode).reversed().map { code in
                    code == 0 ? (0, .always) : (code, .hours(.greaterOrEqual, Double(24 * code)))
                }
                return
            }
            guard let event = Self.event(of: source, field: field, window: window, losses: &losses) else {
                choices = [(0, .always)]
                return
            }
            let top = field.bits.maximumCode
            choices = (0...top).reversed().map { code in
                code == 0 ? (0, .always) : (code, .eventMeasure(event: event, .count, .greaterOrEqual, Double(code)))
            }
        }
    }

    /// The one event a source reads since first launch, or nil (with the loss) when it reads days, or records
    /// the loss of a scope or of a sum over several events and reads the first.
    private static func event(
        of source: ActivitySource, field: Field, window: ConversionWindow, losses: inout [ExportLoss.Kind]
    ) -> Int? {
        if source.measure == .days {
            losses.append(.time("\(field.name): count of days"))
            return nil
        }
        switch source.scope {
        case .sinceFirstLaunch: break
        case .within(let hours) where window == .first && hours >= Double(ConversionWindow.first.hours.upperBound):
            break
        case .within(let hours): losses.append(.time("\(field.name): within \(ConditionNumber.text(hours)) hours"))
        case .inWindow where window == .first: break
        case .inWindow: losses.append(.windowScope(field: field.name))
        }
        if source.events.count > 1 { losses.append(.summedEvents(field: field.name)) }
        return source.events.first
    }

    /// Whether some amount or count between the lowest and the highest bucket lies in no bucket.
    private static func hasGap(_ ascending: [FieldCase], counts: Bool, unit: Double?) -> Bool {
        zip(ascending, ascending.dropFirst()).contains { low, high in
            guard let upper = low.bucket!.upper else { return true }
            return !BucketRange.reaches(
                upper: upper, isHalfOpen: low.bucket!.isHalfOpen, next: high.bucket!.lower, counts: counts,
                unitsPerWhole: unit)
        }
    }
}
