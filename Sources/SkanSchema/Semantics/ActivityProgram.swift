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
    let instructions: [ConditionInstruction]
    let steps: [Step]
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
    /// What each step and window reads: what an update after one change redoes.
    let dependencies: ActivityDependencies
    /// Each event's name, and whether it takes an amount, by index.
    private let eventNames: [String]
    private let eventHasValue: [Bool]
    /// By a name's length in bytes: the only event whose name has that length, or `Self.severalEvents`, or
    /// `Self.noEvent`. Names mostly differ in length, so most lookups compare one name, not every one.
    private let eventByLength: [Int]
    private static let noEvent = -1
    private static let severalEvents = -2

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
        var eventByLength = [Int](
            repeating: Self.noEvent, count: (schema.events.map(\.name.utf8.count).max() ?? 0) + 1)
        for (index, event) in schema.events.enumerated() {
            let length = event.name.utf8.count
            eventByLength[length] = eventByLength[length] == Self.noEvent ? index : Self.severalEvents
        }
        self.eventByLength = eventByLength
        eventHasValue = schema.events.map(\.hasValue)
        dependencies = ActivityDependencies(
            schema: schema, steps: steps, instructions: instructions, choices: choices, windowRules: windowRules,
            rules: rules, locks: locks)
    }

    /// The answer at `hour` on what `running` holds, for the window at that hour: as
    /// `RunningActivity.evaluate(at:)`.
    public func evaluate(_ running: RunningActivity, at hour: Double) -> Answer {
        let slot = windowSlot(at: hour)
        return evaluate(running, at: hour, window: window(at: hour, slot: slot), slot: slot)
    }

    /// The window at `hour`, whose position is `slot`; nil after the last.
    @inline(__always)
    func window(at hour: Double, slot: Int) -> ConversionWindow? {
        hour < windowEnds[slot] ? windows[slot] : nil
    }

    /// The same, with the coarse value, update and lock of `window`: as `RunningActivity.evaluate(at:window:)`.
    public func evaluate(_ running: RunningActivity, at hour: Double, window: ConversionWindow?) -> Answer {
        evaluate(running, at: hour, window: window, slot: windowSlot(at: hour))
    }

    /// The position of the window at `hour`; the last one's after it (what a source counted per window reads).
    @inline(__always)
    func windowSlot(at hour: Double) -> Int {
        hour < windowEnds[0] ? 0 : hour < windowEnds[1] ? 1 : 2
    }

    private func evaluate(_ running: RunningActivity, at hour: Double, window: ConversionWindow?, slot: Int) -> Answer {
        var codes: Codes = (0, 0, 0, 0, 0, 0)
        return evaluate(running, at: hour, window: window, slot: slot, codes: &codes)
    }

    /// Six bits hold at most six fields: their codes live in a tuple on the stack (zeroed as it is declared),
    /// unless a model read from elsewhere has more.
    typealias Codes = (Int, Int, Int, Int, Int, Int)

    /// The answer, with the codes derived left in `codes` (for at most six fields).
    func evaluate(
        _ running: RunningActivity, at hour: Double, window: ConversionWindow?, slot: Int, codes: inout Codes
    ) -> Answer {
        guard steps.count <= 6 else {
            return withUnsafeTemporaryAllocation(of: Int.self, capacity: steps.count) { codes in
                codes.initialize(repeating: 0)
                return withStorage(running, at: hour, slot: slot, codes: codes.baseAddress!) {
                    answer($0, window: window)
                }
            }
        }
        return withUnsafeMutableBytes(of: &codes) { codes in
            withStorage(running, at: hour, slot: slot, codes: codes.baseAddress!.assumingMemoryBound(to: Int.self)) {
                answer($0, window: window)
            }
        }
    }

    /// Runs `body` on the storage of `running` at `hour`, codes read and written at `codes`.
    @inline(__always)
    func withStorage<T>(
        _ running: RunningActivity, at hour: Double, slot: Int, codes: UnsafeMutablePointer<Int>,
        _ body: (Storage) -> T
    ) -> T {
        running.facts.withUnsafeBufferPointer { facts in
            instructions.withUnsafeBufferPointer { instructions in
                // An activity of no events and no fields holds no facts, and no code reads one.
                let base = facts.baseAddress ?? UnsafePointer(bitPattern: MemoryLayout<Double>.alignment)!
                return body(
                    Storage(
                        instructions: instructions, codes: codes, setCodes: base + running.setCodesStart,
                        counts: base, sums: base + running.sumsStart, totals: base + running.totalsStart,
                        hours: hour, windowSlot: slot))
            }
        }
    }

    /// The index of the event `name` and whether it takes an amount; nil for an event the schema does not declare.
    public func event(named name: String) -> (index: Int, hasValue: Bool)? {
        let length = name.utf8.count
        guard length < eventByLength.count else { return nil }
        let only = eventByLength[length]
        if only >= 0 { return eventNames[only] == name ? (only, eventHasValue[only]) : nil }
        guard only == Self.severalEvents else { return nil }
        return eventNames.firstIndex(of: name).map { ($0, eventHasValue[$0]) }
    }

    private func answer(_ storage: Storage, window: ConversionWindow?) -> Answer {
        var fineValue = reservedValue
        for index in steps.indices {
            let code = code(ofStep: index, storage)
            storage.codes[index] = code
            fineValue |= code << shifts[index]
        }
        var answer = Answer(fineValue: fineValue, window: window, coarseValue: nil, sends: false, lock: false)
        decideCoarseValue(&answer, storage)
        return answer
    }

    /// The fine value of `codes`.
    @inline(__always)
    func fineValue(_ codes: UnsafeMutablePointer<Int>) -> Int {
        var fineValue = reservedValue
        for index in shifts.indices { fineValue |= codes[index] << shifts[index] }
        return fineValue
    }

    /// The code of field `index`, the fields before it derived in `storage.codes`.
    @inline(__always)
    func code(ofStep index: Int, _ storage: Storage) -> Int {
        switch steps[index] {
        case .set: Int(storage.setCodes[index])
        case .flag(let condition): holds(condition, storage) ? 1 : 0
        case .firstMatch(let range, let fallback):
            range.first { holds(choices[$0].condition, storage) }.map { choices[$0].code } ?? fallback
        case .buckets(let range, let measure): bucketCode(range, value(measure, storage))
        case .count(let maximum, let measure): min(Int(max(value(measure, storage), 0)), maximum)
        }
    }

    /// Sets the coarse value, update and lock of `answer.window` (none after the last window).
    @inline(__always)
    func decideCoarseValue(_ answer: inout Answer, _ storage: Storage) {
        guard let window = answer.window else {
            (answer.coarseValue, answer.sends, answer.lock) = (nil, false, false)
            return
        }
        let slot = window.postbackSequenceIndex
        let rule = windowRules[slot].first { holds(rules[$0].condition, storage) }.map { rules[$0] }
        // A `nothing` rule sends no update, so nothing locks either.
        answer.coarseValue = rule?.value
        answer.sends = rule?.value != nil
        answer.lock = answer.sends && (locks[slot].map { holds($0, storage) } ?? false)
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
