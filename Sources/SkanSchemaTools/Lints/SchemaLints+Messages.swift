import SkanCompiler
import SkanCore
import SkanSchema

extension Diagnostic {
    static func fineAfterWindowOne(_ field: String, _ what: String, at location: SourceLocation?) -> Diagnostic {
        .warning(
            .fineAfterWindowOne,
            "'\(field)' changes after hour 48 through \(what), but only the fine value carries it and fine values reach only the first postback; read it in a coarse rule of windows 2-3, or measure within the first 48 hours",
            at: location)
    }

    static func coarseBlind(_ field: String, at location: SourceLocation?) -> Diagnostic {
        .warning(
            .coarseBlind,
            "no coarse rule or lock of windows 2-3 reads '\(field)', and only coarse values reach those postbacks; read it there if it matters after day 2",
            at: location)
    }

    static func tooFewRevenueRanges(_ field: String, _ count: Int, at location: SourceLocation?) -> Diagnostic {
        .warning(
            .tooFewRevenueRanges,
            "'\(field)' has \(count) revenue range\(count == 1 ? "" : "s"); Meta asks for at least four for value optimization; split it into four or more",
            at: location)
    }

    static func coarseInconsistent(
        window: ConversionWindow, more: Int, less: Int, moreValue: CoarseValue, lessValue: CoarseValue,
        at location: SourceLocation
    ) -> Diagnostic {
        .warning(
            .coarseInconsistent,
            "in window \(window.number), fine value \(more) is at least fine value \(less) in every field but gets coarse value \(moreValue.rawValue) against \(lessValue.rawValue); order the coarse rules so that more of everything is never lower",
            at: location)
    }

    static func lockAtStart(window: ConversionWindow, at location: SourceLocation?) -> Diagnostic {
        .warning(
            .lockAtStart,
            window == .first
                ? "the lock of window 1 holds at first launch, before anything is logged: the window locks at its first update; lock on an event or a later hour"
                : "the lock of window \(window.number) holds at the window's start with nothing logged: the window locks at its first update; lock on an event or a later hour",
            at: location)
    }

    static func lockWithoutUpdate(window: ConversionWindow, fineValue: Int, at location: SourceLocation?)
        -> Diagnostic
    {
        .warning(
            .lockWithoutUpdate,
            "the lock of window \(window.number) holds in fine value \(fineValue), whose state sends nothing in the window: no update carries the lock, so the window does not lock there; lock only where a coarse rule sends, or give the state a coarse value",
            at: location)
    }

    static func nonMonotoneFine(_ drop: FineValueDrop, at location: SourceLocation?) -> Diagnostic {
        let cause =
            drop.event.map { "after '\($0)' at hour \(ConditionNumber.text(drop.hour))" }
            ?? "at hour \(ConditionNumber.text(drop.hour))"
        return .warning(
            .nonMonotoneFine,
            "the fine value can go down, from \(drop.from) to \(drop.to) \(cause): SKAdNetwork 3 and earlier (and the runtime's increase-only option) keep only increases, so \(drop.to) is lost; give later states higher codes",
            at: location)
    }
}
