public import SkanCore
import SkanSchema

/// Something of a schema that a platform's model cannot say, found while writing the schema in it: what, where
/// in the schema, and the fine values and windows whose entries it touches. An exact export has none; with
/// `--allow-lossy` each is written approximately (a strict amount bound made inclusive, a time or a scope
/// dropped) and listed.
public struct ExportLoss: Hashable, Sendable {
    /// What cannot be said, one kind per stable diagnostic code.
    public enum Kind: Hashable, Sendable {
        /// `hours`, `within`, `count of days` or a time lock, on a platform without time.
        case time(String)
        /// An `in window` source, on a platform whose counts run since install.
        case windowScope(field: String)
        /// `EVENT.sum > X` or `< X`, or a negated amount bound: the platform's bounds are inclusive.
        case strictAmount(String, inclusive: String)
        /// An amount or count summed over several events; the platform bounds each event on its own.
        case summedEvents(field: String)
        /// A field the app sets itself, which no event decides.
        case appSet(field: String)
        /// Buckets with a gap between them (values in the gap go to the nearest bucket).
        case bucketGap(field: String)
        /// More events ANDed in one entry than the platform allows.
        case tooManyEvents(count: Int, limit: Int)
        /// Value events in several currencies, where the platform has one.
        case currencies([String])
        /// More entries in a window than the platform allows, or too many states to list.
        case tooManyEntries(count: Int, limit: Int)
        /// Conditions whose alternatives multiply past what an export follows (`a or b` in every field).
        case tooManyAlternatives(limit: Int)
        /// Conditions that multiply into more work than an export does (`ExportWork`).
        case tooMuchWork(limit: Int)
        /// A name longer than the platform allows.
        case nameTooLong(String, limit: Int)
        /// A value whose events are not one range of each (Google Ads describes each value with one mapping).
        case notOneRange(String)
        /// An event that must not have been logged, which Google Ads' ranges cannot say.
        case notLogged(String)
        /// A count, or bounds that do not say an event was logged, where the platform names logged events.
        case notOccurrence(String)
        /// A revenue range that is not two whole-number ends (Branch's `between`).
        case revenueRange(String)
        /// An hour bound Google Ads' whole hours cannot say (`hours <= 24`, `hours > 3`, `hours >= 1.5`).
        case hourBound(String)
        /// A lock that is not one event, one fine value or one coarse value.
        case lockTrigger(String)
        /// A `nothing` rule before rules that send: a first-match list sends nothing only where no entry holds.
        case nothingBeforeSending
    }

    /// What cannot be said.
    public var kind: Kind
    /// Where in the schema, when known.
    public var location: SourceLocation?
    /// The fine values (window 1) whose entries it touches, ascending.
    public var fineValues: [Int]
    /// The windows whose entries it touches, ascending.
    public var windows: [ConversionWindow]
}

/// Losses as they are found, merged by kind and place.
struct LossLedger {
    private(set) var losses: [ExportLoss] = []

    /// A spent budget is a loss even where no step that ran out said so (a simplification stopped half way).
    mutating func recordExhaustion(of work: ExportWork) {
        let said = losses.contains { if case .tooMuchWork = $0.kind { true } else { false } }
        if work.isExhausted, !said { record(.tooMuchWork(limit: work.limit), at: nil, fineValue: nil, window: .first) }
    }

    mutating func record(
        _ kind: ExportLoss.Kind, at location: SourceLocation?, fineValue: Int?, window: ConversionWindow
    ) {
        if let index = losses.firstIndex(where: { $0.kind == kind && $0.location == location }) {
            if let fineValue, !losses[index].fineValues.contains(fineValue) {
                losses[index].fineValues.append(fineValue)
                losses[index].fineValues.sort()
            }
            if !losses[index].windows.contains(window) {
                losses[index].windows.append(window)
                losses[index].windows.sort()
            }
        } else {
            losses.append(
                ExportLoss(kind: kind, location: location, fineValues: fineValue.map { [$0] } ?? [], windows: [window]))
        }
    }
}
