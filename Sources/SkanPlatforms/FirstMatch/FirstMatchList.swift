public import SkanCore
public import SkanSchema

/// One entry of a platform's first-match list: the events that select it and what it gives.
public struct FirstMatchEntry: Hashable, Sendable {
    /// The bounds that must all hold; empty for the entry that always holds, the last.
    public var when: EventConjunction
    /// The fine value, in window 1; nil in windows 2 and 3.
    public var fineValue: Int?
    /// The coarse value the entry maps to (even where the fine value is nil); nil for a `nothing` rule's entry,
    /// which sends no update. Only the export's own work list holds those: a platform's list ends before them.
    public var coarseValue: CoarseValue?
    /// Whether the window locks.
    public var lock: Bool
    /// The case of each field the entry fixes, by field index; nil for a field the window does not read.
    public var codes: [Int?]
}

/// A schema written as one first-match list per window, GA4's model (and the ground of the other exports):
/// the first entry whose bounds hold gives the values. Every list ends with an entry that always holds (each
/// field's last choice and each window's last coarse rule always do), unless the window ends in `nothing`: then
/// where no entry holds, nothing is sent.
///
/// Built as the lexicographic product of each field's ordering (`FieldOrdering`) in declaration order, then of
/// the window's coarse rules, then of its lock: the first entry of that product that holds is the schema's own
/// state, coarse value and lock, because each field's first holding choice is its case and a later field's
/// conditions read only earlier fields, which the entry fixes. No negation is needed.
public struct FirstMatchList: Sendable {
    /// Each window's entries, in the order the platform tries them.
    public var windows: PerWindow<[FirstMatchEntry]>
    /// What the lists could not say; empty for an exact export.
    public var losses: [ExportLoss]

    /// At most this many partial states are explored per window: beyond, the schema is refused as too large.
    static let maximumStates = 1 << 14

    /// The lists of `schema`, each at most `entryLimit` entries of at most `eventLimit` events.
    public init(schema: Schema, entryLimit: Int, eventLimit: Int) {
        self.init(schema: schema, entryLimit: entryLimit, eventLimit: eventLimit, work: ExportWork())
    }

    /// The lists, built within `work` (all windows together).
    init(schema: Schema, entryLimit: Int, eventLimit: Int, work: ExportWork) {
        var ledger = LossLedger()
        windows = PerWindow { window in
            let orderings = schema.fields.map {
                FieldOrdering(
                    field: $0, window: window, allowsTime: false, units: schema.events.map(\.unitsPerWhole))
            }
            var builder = WindowListBuilder(
                schema: schema, window: window, orderings: orderings, eventLimit: eventLimit, entryLimit: entryLimit,
                work: work)
            builder.build()
            var entries = builder.entries
            for loss in builder.losses {
                ledger.record(loss.kind, at: loss.location, fineValue: loss.fineValue, window: window)
            }
            // Where no entry holds, the platform sends nothing: a `nothing` entry at the end is said by leaving it
            // out; one before an entry that sends cannot be said.
            while entries.last.map({ $0.coarseValue == nil }) ?? false { entries.removeLast() }
            if let silent = entries.first(where: { $0.coarseValue == nil }) {
                let rule = schema.coarseRules(window: window).first { $0.value == nil }
                ledger.record(.nothingBeforeSending, at: rule?.location, fineValue: silent.fineValue, window: window)
                entries.removeAll { $0.coarseValue == nil }
            }
            if entries.count > entryLimit {
                ledger.record(
                    .tooManyEntries(count: entries.count, limit: entryLimit), at: nil, fineValue: nil, window: window)
                entries = Array(entries.prefix(entryLimit))
            }
            return entries
        }
        ledger.recordExhaustion(of: work)
        let currencies = Set(schema.events.compactMap(\.currency)).sorted()
        if currencies.count > 1 {
            ledger.record(.currencies(currencies), at: schema.sites.event(0), fineValue: nil, window: .first)
        }
        losses = ledger.losses
    }
}

/// One window's list, built depth-first over the fields the window reads.
private struct WindowListBuilder {
    struct FoundLoss {
        var kind: ExportLoss.Kind
        var location: SourceLocation?
        var fineValue: Int?
    }

    let schema: Schema
    let window: ConversionWindow
    let orderings: [FieldOrdering]
    let eventLimit: Int
    /// Past this many entries the list is refused anyway: building stops one entry after it.
    let entryLimit: Int
    let work: ExportWork
    /// The fields the window's values depend on, ascending.
    let needed: [Int]
    var entries: [FirstMatchEntry] = []
    var losses: [FoundLoss] = []
    var explored = 0
    /// Whether an entry that always holds was reached: nothing after it can match.
    var closed = false
    /// The bounds of the entries so far.
    var written: Set<EventConjunction> = []

    init(
        schema: Schema, window: ConversionWindow, orderings: [FieldOrdering], eventLimit: Int, entryLimit: Int,
        work: ExportWork
    ) {
        self.schema = schema
        self.window = window
        self.orderings = orderings
        self.eventLimit = eventLimit
        self.entryLimit = entryLimit
        self.work = work
        needed = schema.fieldsRead(in: window)
    }

    mutating func build() {
        var codes = [Int?](repeating: nil, count: schema.fields.count)
        descend(depth: 0, codes: &codes, terms: [.always], pending: [], strictPending: [])
    }

    /// A loss found on the way to a state, recorded with the state's fine value once the state is complete.
    typealias PendingLoss = (kind: ExportLoss.Kind, location: SourceLocation?)

    private mutating func descend(
        depth: Int, codes: inout [Int?], terms: [EventConjunction], pending: [PendingLoss],
        strictPending: [PendingLoss]
    ) {
        guard !closed, !work.isExhausted, entries.count <= entryLimit else { return }
        explored += 1
        if explored == FirstMatchList.maximumStates {
            losses.append(
                FoundLoss(
                    kind: .tooManyEntries(count: explored, limit: FirstMatchList.maximumStates), location: nil,
                    fineValue: nil))
        }
        guard explored < FirstMatchList.maximumStates else { return }
        guard depth < needed.count else {
            return finish(codes: codes, terms: terms, pending: pending, strictPending: strictPending)
        }
        let field = needed[depth]
        let fieldLosses = orderings[field].losses.map { ($0, schema.sites.field(field)) }
        for choice in orderings[field].choices {
            codes[field] = choice.code
            var translation = ConditionTranslation(
                schema: schema, codes: codes, location: schema.sites.field(field), work: work)
            let chosen = translation.terms(of: choice.condition)
            let combined = ConditionTranslation.cross(terms, chosen, work: work, losses: &translation.losses)
            if work.isExhausted {
                // Located where it ran out; the states below are not built.
                losses.append(
                    FoundLoss(
                        kind: .tooMuchWork(limit: work.limit), location: schema.sites.field(field), fineValue: nil))
                break
            }
            let found = pending + fieldLosses + translation.losses.map { ($0, schema.sites.field(field)) }
            let strict = strictPending + translation.strictTerms.map { ($0, schema.sites.field(field)) }
            if !combined.isEmpty {
                descend(depth: depth + 1, codes: &codes, terms: combined, pending: found, strictPending: strict)
            }
            if closed { break }
        }
        codes[field] = nil
    }

    /// The entries of one state: its terms, times the window's coarse rules, times its lock.
    private mutating func finish(
        codes: [Int?], terms: [EventConjunction], pending: [PendingLoss], strictPending: [PendingLoss]
    ) {
        let fineValue = window == .first ? schema.fineValue(of: SchemaState(codes: codes.map { $0 ?? 0 })) : nil
        for loss in pending { losses.append(FoundLoss(kind: loss.kind, location: loss.location, fineValue: fineValue)) }
        let lock = schema.lockCondition(window: window)
        // The lock's terms for this state, translated once for all its rules.
        var lockTranslation = ConditionTranslation(
            schema: schema, codes: codes, location: schema.sites.locks[window], work: work)
        let lockTerms = lock.map { lockTranslation.terms(of: $0) }
        for rule in schema.coarseRules(window: window) {
            var translation = ConditionTranslation(
                schema: schema, codes: codes, location: rule.location, work: work)
            let ruleTerms = translation.terms(of: rule.condition)
            let ruled = ConditionTranslation.cross(terms, ruleTerms, work: work, losses: &translation.losses)
            record(translation.losses, at: rule.location, fineValue: fineValue)
            var strict = strictPending + translation.strictTerms.map { ($0, rule.location) }
            var locked: [EventConjunction] = []
            if let lockTerms {
                var crossing: [ExportLoss.Kind] = []
                locked = ConditionTranslation.cross(ruled, lockTerms, work: work, losses: &crossing)
                record(lockTranslation.losses + crossing, at: schema.sites.locks[window], fineValue: fineValue)
                lockTranslation.losses = []
                strict += lockTranslation.strictTerms.map { ($0, schema.sites.locks[window]) }
            }
            for (conjunctions, locks) in [(locked, true), (ruled, false)] {
                for conjunction in conjunctions {
                    add(
                        FirstMatchEntry(
                            when: conjunction, fineValue: fineValue, coarseValue: rule.value, lock: locks, codes: codes),
                        strict: strict)
                    if closed || work.isExhausted || entries.count > entryLimit { return }
                }
            }
        }
    }

    /// Adds `entry`; a strict bound it keeps is a loss (of the strict terms on its way), written inclusive.
    private mutating func add(_ entry: FirstMatchEntry, strict: [PendingLoss]) {
        var entry = entry
        if entry.when.hasStrictBound {
            for term in strict {
                losses.append(FoundLoss(kind: term.kind, location: term.location, fineValue: entry.fineValue))
            }
            entry.when = entry.when.inclusive
        }
        // The same bounds as an earlier entry: that one always matches first (a state's later coarse rule after
        // one that holds for the whole state, say).
        guard written.insert(entry.when).inserted else { return }
        if entry.when.bounds.count > eventLimit {
            losses.append(
                FoundLoss(
                    kind: .tooManyEvents(count: entry.when.bounds.count, limit: eventLimit), location: nil,
                    fineValue: entry.fineValue))
        }
        entries.append(entry)
        // It always holds: nothing after it is reached.
        if entry.when == .always { closed = true }
    }

    private mutating func record(_ kinds: [ExportLoss.Kind], at location: SourceLocation?, fineValue: Int?) {
        for kind in kinds { losses.append(FoundLoss(kind: kind, location: location, fineValue: fineValue)) }
    }
}
