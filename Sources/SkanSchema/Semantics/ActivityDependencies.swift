import SkanCore

/// What each part of an `ActivityProgram` reads, so that an evaluation after one change (an event logged, a field
/// set, time moved on) redoes only the steps and rules that change can reach, as a spreadsheet recalculates only
/// the cells that read a changed one. Fields and windows are bits of a mask: a schema has at most six fields.
struct ActivityDependencies: Sendable {
    /// Whether an evaluation can be updated rather than redone: at most six fields (their codes fit the kept
    /// tuple), and every condition reads only fields before its own (so a kept later code is never read early).
    let applies: Bool
    /// Per event, the steps reading it: its count or sum in a condition, or a source it feeds.
    let stepsReadingEvent: [UInt64]
    /// Per event, the windows (by position) whose coarse rules or lock read its count or sum.
    let windowsReadingEvent: [UInt8]
    /// Per field, the steps reading its code (all after it).
    let stepsReadingField: [UInt64]
    /// Per window position, the fields its coarse rules and lock read.
    let fieldsReadByWindow: [UInt64]
    /// The steps whose code can change with the hour alone: `hours` in a condition, days, a total per window.
    let stepsReadingHours: UInt64
    /// The hours at which anything read can change: each `hours` comparison's number and each window's end.
    let hourMarks: [Double]
    /// Whether a step counts whole days: then every day starts a new stretch of time.
    let readsDays: Bool

    /// Where an hour lies among the marks (between two, or on one) and, for a schema that counts days, its day:
    /// two evaluations in the same stretch read the same from the hour.
    struct Stretch: Sendable {
        var lower: Double
        var upper: Double
        var day: Double
    }

    /// What the program's tables read: its steps (one per field), their conditions in `instructions` and
    /// `choices`, and each window's coarse rules and lock.
    init(
        schema: Schema, steps: [ActivityProgram.Step], instructions: [ConditionInstruction],
        choices: [(condition: Range<Int>, code: Int)], windowRules: [Range<Int>],
        rules: [(value: CoarseValue?, condition: Range<Int>)], locks: [Range<Int>?]
    ) {
        let fields = steps.count
        let events = schema.events.count
        var stepsReadingEvent = [UInt64](repeating: 0, count: events)
        var windowsReadingEvent = [UInt8](repeating: 0, count: events)
        var stepsReadingField = [UInt64](repeating: 0, count: fields)
        var fieldsReadByWindow = [UInt64](repeating: 0, count: ConversionWindow.allCases.count)
        var stepsReadingHours: UInt64 = 0
        var marks = Set(ConversionWindow.allCases.map { Double($0.hours.upperBound) })
        var readsDays = false
        var applies = fields <= 6

        /// Marks what the condition at `range` reads as read by `reader`.
        func read(_ range: Range<Int>, by reader: (field: Int?, window: Int?)) {
            for instruction in instructions[range] {
                switch instruction {
                case .code(let field, _, _):
                    if let step = reader.field {
                        if field >= step { applies = false } else { stepsReadingField[field] |= 1 << step }
                    }
                    if let window = reader.window { fieldsReadByWindow[window] |= 1 << field }
                case .count(let event, _, _), .sum(let event, _, _):
                    if let step = reader.field { stepsReadingEvent[event] |= 1 << step }
                    if let window = reader.window { windowsReadingEvent[event] |= 1 << window }
                case .hours(_, let number):
                    marks.insert(number)
                    if let step = reader.field { stepsReadingHours |= 1 << step }
                case .constant, .not, .jumpIfFalse, .jumpIfTrue:
                    break
                }
            }
        }

        for (index, step) in steps.enumerated() where applies {
            switch step {
            case .set:
                break
            case .flag(let condition):
                read(condition, by: (index, nil))
            case .firstMatch(let range, _):
                for choice in range { read(choices[choice].condition, by: (index, nil)) }
            case .buckets(_, let measure), .count(_, let measure):
                switch measure {
                case .days:
                    readsDays = true
                    stepsReadingHours |= 1 << index
                case .inWindow:
                    stepsReadingHours |= 1 << index
                case .total:
                    break
                }
                for event in schema.fields[index].source?.events ?? [] where (0..<events).contains(event) {
                    stepsReadingEvent[event] |= 1 << index
                }
            }
        }
        for window in 0..<ConversionWindow.allCases.count where applies {
            for rule in windowRules[window] { read(rules[rule].condition, by: (nil, window)) }
            if let lock = locks[window] { read(lock, by: (nil, window)) }
        }
        self.applies = applies
        self.stepsReadingEvent = stepsReadingEvent
        self.windowsReadingEvent = windowsReadingEvent
        self.stepsReadingField = stepsReadingField
        self.fieldsReadByWindow = fieldsReadByWindow
        self.stepsReadingHours = stepsReadingHours
        hourMarks = marks.sorted()
        self.readsDays = readsDays
    }

    /// The stretch of time `hour` lies in.
    func stretch(at hour: Double) -> Stretch {
        let day = readsDays ? (max(hour, 0) / 24).rounded(.down) : 0
        if hourMarks.contains(hour) { return Stretch(lower: hour, upper: hour, day: day) }
        return Stretch(
            lower: hourMarks.last { $0 < hour } ?? -.infinity, upper: hourMarks.first { $0 > hour } ?? .infinity,
            day: day)
    }

    /// Whether `hour` lies in `stretch`. Never for an hour that is not a number, nor for an infinite one: those
    /// are evaluated afresh every time.
    @inline(__always)
    func holds(_ stretch: Stretch, _ hour: Double) -> Bool {
        let inside = stretch.lower < hour ? hour < stretch.upper : stretch.lower == hour && hour == stretch.upper
        return inside && (!readsDays || stretch.day == (max(hour, 0) / 24).rounded(.down))
    }
}
