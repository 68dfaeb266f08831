public import SkanCore

/// The reference semantics compiled once per schema, for an app that evaluates a fetched schema on every logged
/// event: conditions become instructions over flat storage (the codes being derived, the codes the app set, the
/// counts, sums and source totals), each derivation a step over that storage, and the fine value a sum of
/// shifts. `RunningActivity.evaluate(at:window:)` walks the model itself and stays the reference; this gives the
/// same answers (InterpretedState's tests hold both to the generated code) without the walk's copies and
/// allocations: everything here is plain values, so an evaluation retains and allocates nothing.
public final class ActivityProgram: Sendable {
    /// What compiled code reads: the codes derived so far (later fields still 0), the codes the app set, the
    /// activity's counts, sums and source totals, the hour, and the slot of the window at the hour.
    struct Storage {
        let instructions: UnsafeBufferPointer<ConditionInstruction>
        let codes: UnsafeMutablePointer<Int>
        let setCodes: UnsafePointer<Double>
        let counts: UnsafePointer<Double>
        let sums: UnsafePointer<Double>
        let totals: UnsafePointer<Double>
        let hours: Double
        let windowSlot: Int
    }

    /// How one field's code is found.
    enum Step: Sendable {
        /// Set by the app (0 until it is).
        case set
        /// 1 when the condition holds.
        case flag(Range<Int>)
        /// The first of `choices[range]` whose condition holds gives its code; none, `fallback`.
        case firstMatch(Range<Int>, fallback: Int)
        /// The code of the bucket in `buckets[range]` that holds the measure.
        case buckets(Range<Int>, Measure)
        /// The measure, capped at the field's largest code.
        case count(maximum: Int, Measure)
    }

    /// What a `buckets` or `count` field measures: whole days, or a source total (by slot in `totals`, the first
    /// of three for a total per window).
    enum Measure: Sendable {
        case days
        case total(Int)
        case inWindow(Int)
    }

    /// One bucket: its range and its case's code.
    struct Bucket: Sendable {
        var lower: Double
        var upper: Double?
        var isHalfOpen: Bool
        var code: Int
    }

    /// What the updater asks at an hour: the fine value, and the coarse value, update and lock of a window.
    public struct Answer: Hashable, Sendable {
        /// The fine value of the state at the hour.
        public var fineValue: Int
        /// The window asked about; nil after the last.
        public var window: ConversionWindow?
        /// Its coarse value; nil after the last window and where a `nothing` rule holds.
        public var coarseValue: CoarseValue?
        /// Whether an update is sent in the window.
        public var sends: Bool
        /// Whether the window locks.
        public var lock: Bool
    }

    /// The running activity before anything is logged, made once: every conversion starts from a copy.
    public let start: RunningActivity
    private let instructions: [ConditionInstruction]
    private let steps: [Step]
    /// `firstMatch` cases: each condition and the code it gives.
    private let choices: [(condition: Range<Int>, code: Int)]
    private let buckets: [Bucket]
    private let shifts: [Int]
    private let reservedValue: Int
    /// Each window's coarse rules (a range of `rules`) and lock condition.
    private let windowRules: [Range<Int>]
    private let rules: [(value: CoarseValue?, condition: Range<Int>)]
    private let locks: [Range<Int>?]
    /// Where each window ends, in hours, and the windows in that order.
    private let windowEnds: [Double]
    private let windows = ConversionWindow.allCases
    /// Each event's name, and whether it takes an amount, by index.
    private let eventNames: [String]
    private let eventLengths: [Int]
    private let eventHasValue: [Bool]

    /// The program of `schema`.
    public init(schema: Schema) {
        start = RunningActivity(schema: schema)
        var compiler = ProgramCompiler(schema: schema)
        steps = schema.fields.indices.map { compiler.step(field: $0) }
        var windowRules: [Range<Int>] = []
        var rules: [(value: CoarseValue?, condition: Range<Int>)] = []
        var locks: [Range<Int>?] = []
        for window in ConversionWindow.allCases {
            let first = rules.count
            rules += schema.coarseRules(window: window).map { ($0.value, compiler.conditions.compile($0.condition)) }
            windowRules.append(first..<rules.count)
            locks.append(schema.lockCondition(window: window).map { compiler.conditions.compile($0) })
        }
        (self.windowRules, self.rules, self.locks) = (windowRules, rules, locks)
        (instructions, choices, buckets) = (compiler.conditions.instructions, compiler.choices, compiler.buckets)
        shifts = schema.fields.map(\.bits.lower)
        reservedValue = schema.reservedBits.reduce(0) { $0 | $1.code << $1.bits.lower }
        windowEnds = ConversionWindow.allCases.map { Double($0.hours.upperBound) }
        precondition(windowEnds.count == 3, "windowSlot(at:) reads three windows")
        eventNames = schema.events.map(\.name)
        eventLengths = schema.events.map(\.name.utf8.count)
        eventHasValue = schema.events.map(\.hasValue)
    }

    /// The answer at `hour` on what `running` holds, for the window at that hour: as
    /// `RunningActivity.evaluate(at:)`.
    public func evaluate(_ running: RunningActivity, at hour: Double) -> Answer {
        let slot = windowSlot(at: hour)
        return evaluate(running, at: hour, window: hour < windowEnds[slot] ? windows[slot] : nil, slot: slot)
    }

    /// The same, with the coarse value, update and lock of `window`: as `RunningActivity.evaluate(at:window:)`.
    public func evaluate(_ running: RunningActivity, at hour: Double, window: ConversionWindow?) -> Answer {
        evaluate(running, at: hour, window: window, slot: windowSlot(at: hour))
    }

    /// The position of the window at `hour`; the last one's after it (what a source counted per window reads).
    @inline(__always)
    private func windowSlot(at hour: Double) -> Int {
        hour < windowEnds[0] ? 0 : hour < windowEnds[1] ? 1 : 2
    }

    private func evaluate(_ running: RunningActivity, at hour: Double, window: ConversionWindow?, slot: Int) -> Answer {
        // Six bits hold at most six fields: their codes live in a tuple on the stack (zeroed as it is declared),
        // unless a model read from elsewhere has more.
        var codes: (Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0)
        guard steps.count <= 6 else {
            return withUnsafeTemporaryAllocation(of: Int.self, capacity: steps.count) { codes in
                codes.initialize(repeating: 0)
                return evaluate(running, at: hour, window: window, slot: slot, codes: codes.baseAddress!)
            }
        }
        return withUnsafeMutableBytes(of: &codes) { codes in
            evaluate(
                running, at: hour, window: window, slot: slot,
                codes: codes.baseAddress!.assumingMemoryBound(to: Int.self))
        }
    }

    @inline(__always)
    private func evaluate(
        _ running: RunningActivity, at hour: Double, window: ConversionWindow?, slot: Int,
        codes: UnsafeMutablePointer<Int>
    ) -> Answer {
        running.facts.withUnsafeBufferPointer { facts in
            instructions.withUnsafeBufferPointer { instructions in
                // An activity of no events and no fields holds no facts, and no code reads one.
                let base = facts.baseAddress ?? UnsafePointer(bitPattern: MemoryLayout<Double>.alignment)!
                let storage = Storage(
                    instructions: instructions, codes: codes, setCodes: base + running.setCodesStart, counts: base,
                    sums: base + running.sumsStart, totals: base + running.totalsStart, hours: hour,
                    windowSlot: slot)
                return answer(storage, window: window)
            }
        }
    }

    /// The index of the event `name` and whether it takes an amount; nil for an event the schema does not declare.
    public func event(named name: String) -> (index: Int, hasValue: Bool)? {
        // Lengths first: names mostly differ in length, and comparing two lengths costs less than two strings.
        let length = name.utf8.count
        for index in eventNames.indices where eventLengths[index] == length && eventNames[index] == name {
            return (index, eventHasValue[index])
        }
        return nil
    }

    private func answer(_ storage: Storage, window: ConversionWindow?) -> Answer {
        var fineValue = reservedValue
        for index in steps.indices {
            let code: Int
            switch steps[index] {
            case .set: code = Int(storage.setCodes[index])
            case .flag(let condition): code = holds(condition, storage) ? 1 : 0
            case .firstMatch(let range, let fallback):
                code = range.first { holds(choices[$0].condition, storage) }.map { choices[$0].code } ?? fallback
            case .buckets(let range, let measure): code = bucketCode(range, value(measure, storage))
            case .count(let maximum, let measure): code = min(Int(max(value(measure, storage), 0)), maximum)
            }
            storage.codes[index] = code
            fineValue |= code << shifts[index]
        }
        guard let window else {
            return Answer(fineValue: fineValue, window: nil, coarseValue: nil, sends: false, lock: false)
        }
        let slot = window.postbackSequenceIndex
        let rule = windowRules[slot].first { holds(rules[$0].condition, storage) }.map { rules[$0] }
        // A `nothing` rule sends no update, so nothing locks either.
        let sends = rule?.value != nil
        return Answer(
            fineValue: fineValue, window: window, coarseValue: rule?.value, sends: sends,
            lock: sends && (locks[slot].map { holds($0, storage) } ?? false))
    }

    /// Runs the condition at `range`: one register, the answer so far.
    @inline(__always)
    private func holds(_ range: Range<Int>, _ storage: Storage) -> Bool {
        var answer = true
        var next = range.lowerBound
        while next < range.upperBound {
            switch storage.instructions[next] {
            case .constant(let value): answer = value
            case .code(let field, let op, let code): answer = op.holds(storage.codes[field], code)
            case .count(let event, let op, let number): answer = op.holds(storage.counts[event], number)
            case .sum(let event, let op, let number): answer = op.holds(storage.sums[event], number)
            case .hours(let op, let number): answer = op.holds(storage.hours, number)
            case .not: answer = !answer
            case .jumpIfFalse(let target):
                if !answer {
                    next = target
                    continue
                }
            case .jumpIfTrue(let target):
                if answer {
                    next = target
                    continue
                }
            }
            next += 1
        }
        return answer
    }

    /// What `RunningActivity.measure(field:at:)` reads.
    @inline(__always)
    private func value(_ measure: Measure, _ storage: Storage) -> Double {
        switch measure {
        case .days: (max(storage.hours, 0) / 24).rounded(.down)
        case .total(let slot): storage.totals[slot]
        case .inWindow(let first): storage.totals[first + storage.windowSlot]
        }
    }

    /// The code of the first bucket in `range` that holds `value` (as `Field.bucketCase(for:)`), else of the one
    /// with the greatest lower bound at or below it, else of the lowest (as `Field.nearestBucketCase(for:)`).
    private func bucketCode(_ range: Range<Int>, _ value: Double) -> Int {
        for index in range where value >= buckets[index].lower {
            guard let upper = buckets[index].upper else { return buckets[index].code }
            if buckets[index].isHalfOpen ? value < upper : value <= upper { return buckets[index].code }
        }
        var best: Int? = nil
        for index in range where buckets[index].lower <= value {
            if best.map({ buckets[index].lower > buckets[$0].lower }) ?? true { best = index }
        }
        if best == nil { best = range.min { buckets[$0].lower < buckets[$1].lower } }
        return best.map { buckets[$0].code } ?? 0
    }
}

/// Compiles a schema's conditions, `firstMatch` choices and buckets into the program's flat tables.
private struct ProgramCompiler {
    let schema: Schema
    var conditions: ConditionCompiler
    var choices: [(condition: Range<Int>, code: Int)] = []
    var buckets: [ActivityProgram.Bucket] = []

    init(schema: Schema) {
        self.schema = schema
        conditions = ConditionCompiler(fields: schema.fields.count, events: schema.events.count)
    }

    /// The step of field `index`: what `RunningActivity.evaluate(at:window:)` does for it.
    mutating func step(field index: Int) -> ActivityProgram.Step {
        let field = schema.fields[index]
        switch field.derivation {
        case nil:
            return .set
        case .flag(let condition):
            return .flag(conditions.compile(condition))
        case .firstMatch(let derived):
            let first = choices.count
            for (condition, item) in zip(derived, field.cases) {
                choices.append((conditions.compile(condition), item.code))
            }
            return .firstMatch(first..<choices.count, fallback: field.cases.last?.code ?? 0)
        case .buckets(let source):
            let first = buckets.count
            for item in field.cases {
                guard let bucket = item.bucket else { continue }
                buckets.append(
                    .init(lower: bucket.lower, upper: bucket.upper, isHalfOpen: bucket.isHalfOpen, code: item.code))
            }
            return .buckets(first..<buckets.count, Self.measure(field: index, source))
        case .count(let source):
            return .count(maximum: field.bits.maximumCode, Self.measure(field: index, source))
        }
    }

    private static func measure(field index: Int, _ source: ActivitySource) -> ActivityProgram.Measure {
        let first = index * RunningActivity.slots
        switch (source.measure, source.scope) {
        case (.days, _): return .days
        case (_, .inWindow): return .inWindow(first)
        default: return .total(first)
        }
    }
}
