public import SkanCore

/// The codes of `skanc export`, one per kind of loss, explained in docs/Export.md.
extension DiagnosticCode {
    /// `hours`, `within`, `count of days` or a time lock, on a platform without time.
    public static let exportTime = DiagnosticCode("export-time")
    /// An `in window` source, on a platform that counts since install.
    public static let exportScope = DiagnosticCode("export-scope")
    /// A strict or negated amount bound; the platform's bounds are inclusive.
    public static let exportBound = DiagnosticCode("export-bound")
    /// A source over several events.
    public static let exportSum = DiagnosticCode("export-sum")
    /// A field the app sets itself.
    public static let exportAppSet = DiagnosticCode("export-app-set")
    /// Buckets with gaps.
    public static let exportGap = DiagnosticCode("export-gap")
    /// More ANDed events, entries or states than the platform allows, or a name too long.
    public static let exportLimit = DiagnosticCode("export-limit")
    /// Value events in several currencies.
    public static let exportCurrency = DiagnosticCode("export-currency")
    /// A value or lock the platform's one-mapping-per-value model cannot describe.
    public static let exportShape = DiagnosticCode("export-shape")

    /// Every code `skanc export` raises, in the order docs/Export.md explains them.
    public static let exportCodes: [DiagnosticCode] = [
        .exportTime, .exportScope, .exportBound, .exportSum, .exportAppSet, .exportGap, .exportLimit, .exportCurrency,
        .exportShape,
    ]
}

extension ExportLoss {
    /// The loss as a diagnostic for `platform`: an error, or with `lossy` a warning saying what was written
    /// instead. Each names the fine values and windows it touches, and what to do.
    public func diagnostic(platform: String, lossy: Bool) -> Diagnostic {
        let (code, problem, instead, fix) = parts(platform: platform)
        let scope = touched.isEmpty ? "" : " (\(touched))"
        let message =
            lossy
            ? "\(problem)\(scope); written \(instead)"
            : "\(problem)\(scope); \(fix), or export with --allow-lossy to write it \(instead)"
        return Diagnostic(lossy ? .warning : .error, code, message, at: location)
    }

    /// `fine values 8, 9; windows 1 and 2`.
    var touched: String {
        var parts: [String] = []
        if !fineValues.isEmpty {
            let shown = fineValues.prefix(12).map(String.init).joined(separator: ", ")
            parts.append(
                (fineValues.count == 1 ? "fine value " : "fine values ") + shown
                    + (fineValues.count > 12 ? " and \(fineValues.count - 12) more" : ""))
        }
        if !windows.isEmpty {
            let numbers = windows.map { String($0.number) }
            parts.append(
                (windows.count == 1 ? "window " : "windows ")
                    + (numbers.count == 1
                        ? numbers[0] : numbers.dropLast().joined(separator: ", ") + " and " + numbers.last!))
        }
        return parts.joined(separator: "; ")
    }

    private func parts(platform: String) -> (DiagnosticCode, String, String, String) {
        switch kind {
        case .time(let what):
            return (
                .exportTime, "\(platform) has no clock: '\(what)' cannot be written", "as if the time always held",
                "express it with events alone"
            )
        case .windowScope(let field):
            return (
                .exportScope, "\(platform) counts events since install: '\(field)' counts in window",
                "as counted since install", "count since first launch"
            )
        case .strictAmount(let what, let inclusive):
            return (
                .exportBound, "\(platform)'s bounds are inclusive: '\(what)' cannot be written",
                "with the inclusive bound", "write it inclusively ('\(inclusive)' for amounts in cents)"
            )
        case .summedEvents(let field):
            return (
                .exportSum, "\(platform) bounds each event on its own: '\(field)' sums several events",
                "on the first event alone", "read one event, or log one event for the total"
            )
        case .appSet(let field):
            return (
                .exportAppSet, "\(platform) sets values from events: '\(field)' is set by the app",
                "as its first case", "derive it from events ('= CODE when EVENT ...')"
            )
        case .bucketGap(let field):
            return (
                .exportGap, "'\(field)' has amounts between its buckets, which go to the nearest bucket",
                "with each bucket reaching up to the next", "make each bucket start where the one below ends"
            )
        case .tooManyEvents(let count, let limit):
            return (
                .exportLimit, "an entry needs \(count) events together and \(platform) allows \(limit)",
                "with its first \(limit)", "read fewer events in one state"
            )
        case .tooManyEntries(let count, let limit):
            return (
                // Building stops one entry past the limit: past it, the count says only that.
                .exportLimit,
                "the schema needs \(count > limit ? "more than \(limit)" : "\(count)") entries and \(platform) allows \(limit)",
                "cut to the first \(limit)", "read fewer fields or events in the window"
            )
        case .tooManyAlternatives(let limit):
            return (
                .exportLimit, "the conditions multiply into more than \(limit) alternatives for one state",
                "with the first \(limit)", "write fewer 'or's, or split the conditions over fewer fields"
            )
        case .tooMuchWork(let limit):
            return (
                .exportLimit,
                "the conditions multiply into more than \(limit) combinations of events, more than an export builds",
                "with what was built before the limit", "write fewer 'or's, or split the conditions over fewer fields"
            )
        case .currencies(let codes):
            return (
                .exportCurrency,
                "\(platform) has one currency per property and the events have \(codes.joined(separator: ", "))",
                "as if they were one", "give every value event the property's currency"
            )
        case .notOneRange(let what):
            return (
                .exportShape, "\(platform) describes each value with one range of each event: \(what) is not one",
                "with the first of its ranges", "make the cases' conditions one range each, apart from the others"
            )
        case .notLogged(let event):
            return (
                .exportShape, "\(platform) cannot say that '\(event)' was not logged", "without that condition",
                "describe the value by what was logged"
            )
        case .notOccurrence(let what):
            return (
                .exportShape,
                "\(platform) names events that were logged, each at most with a revenue range: '\(what)' cannot be written",
                "as the event having been logged", "describe the value by whether the event was logged and its revenue"
            )
        case .revenueRange(let what):
            return (
                .exportBound,
                "\(platform) bounds revenue between two whole numbers: '\(what)' cannot be written",
                "without the revenue range", "bound the event's revenue from below and above with whole numbers"
            )
        case .hourBound(let what):
            return (
                .exportBound,
                "\(platform) counts whole hours since install from a lower bound up to an upper one: '\(what)' cannot be written",
                "rounded to whole hours", "write time as 'hours >= N' and 'hours < N' with whole N"
            )
        case .lockTrigger(let what):
            return (
                .exportShape,
                "\(platform) locks on one event, one fine value or one coarse value: \(what) is none of them",
                "without the lock", "lock when one event is logged, or when the fine or coarse value is one value"
            )
        case .nothingBeforeSending:
            return (
                .exportShape,
                "\(platform) sends nothing only where no entry holds: a 'nothing' rule before rules that send cannot be written",
                "as if it were not there", "make 'nothing' the window's last rule ('nothing otherwise')"
            )
        case .nameTooLong(let name, let limit):
            return (
                .exportLimit, "the event name '\(name)' is longer than \(platform)'s \(limit) characters",
                "as it is", "rename the event"
            )
        }
    }
}
