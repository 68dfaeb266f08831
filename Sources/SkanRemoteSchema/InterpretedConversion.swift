public import SkanCore
public import SkanSchema
public import SkanSchemaArtifact

/// An event as the app logs it to an interpreted schema: its name in the schema, and its amount for a value event.
public struct InterpretedEvent: Sendable, Hashable {
    /// The event's name, as the schema declares it.
    public var name: String
    /// The amount, in the event's currency; nil for a counted event.
    public var amount: Double?

    /// The event `name`, with `amount` for a value event.
    public init(_ name: String, amount: Double? = nil) {
        self.name = name
        self.amount = amount
    }
}

/// What is kept of an interpreted conversion between launches: the artifact's name, what was logged and set, and
/// the hour.
public struct InterpretedActivity: Codable, Sendable, Hashable {
    /// One logged event, as kept.
    public struct Record: Codable, Sendable, Hashable {
        /// The event's index in the schema.
        public var event: Int
        /// When, in hours since the conversion's start.
        public var hour: Double
        /// Its amount, for a value event.
        public var amount: Double?
    }

    /// The artifact the conversion started with (its SHA-256).
    public var artifact: String
    /// Events logged: index in the schema, hour, amount.
    public var events: [Record] = []
    /// App-set fields: index and code.
    public var set: [Int: Int] = [:]
    /// Hours since the conversion's start.
    public var hour: Double = 0
}

/// One conversion interpreted from the artifact it started with: what `InterpretedState` does, without its type
/// parameter, so that the work is compiled once here rather than reached through generic metadata on each event.
public struct InterpretedConversion: Sendable {
    /// The artifact this conversion interprets.
    public private(set) var artifact: SchemaArtifact
    /// What was logged and set.
    public private(set) var activity: InterpretedActivity
    /// The activity's counts, sums and sources, kept up to date as it grows: a query costs the same whatever
    /// came before (rebuilt only when a kept activity is restored).
    private var running: RunningActivity
    /// The schema evaluated at the activity's hour by the artifact's program, brought up to date once per change
    /// (only what the change can reach is derived again): the updater asks the fine value, the window's coarse
    /// value and its lock of the same state, and each answer reads it.
    private var evaluation: ActivityProgram.Evaluation

    /// A conversion that starts now with `artifact`.
    public init(_ artifact: SchemaArtifact) {
        self.artifact = artifact
        activity = InterpretedActivity(artifact: artifact.fileName)
        running = artifact.program.start
        evaluation = artifact.program.evaluation(running, at: 0)
    }

    /// The state `fineValue` encodes under `artifact` (its app-set fields); throws for a value that is no state of
    /// the schema.
    public init(_ artifact: SchemaArtifact, fineValue: Int) throws {
        self.init(artifact)
        let state = try artifact.schema.decode(fineValue: fineValue).get()
        for (index, field) in artifact.schema.fields.enumerated() where field.derivation == nil {
            activity.set[index] = state.codes[index]
            running.set(field: index, code: state.codes[index])
        }
        refresh()
    }

    /// The running activity of a kept `activity` under `program`.
    private static func running(_ activity: InterpretedActivity, program: ActivityProgram) -> RunningActivity {
        var running = program.start
        // A kept activity read back from disk: events past its hour (never logged so) are left out.
        for record in activity.events where record.hour <= activity.hour {
            running.log(LoggedEvent(event: record.event, hour: record.hour, amount: record.amount))
        }
        for (index, code) in activity.set { running.set(field: index, code: code) }
        return running
    }

    /// Evaluates afresh.
    private mutating func refresh() {
        evaluation = artifact.program.evaluation(running, at: activity.hour)
    }

    /// Brings the evaluation up to date after `change`.
    private mutating func refresh(after change: ActivityProgram.Change) {
        artifact.program.update(&evaluation, running, at: activity.hour, after: change)
    }

    /// The fine value at the current hour.
    public var fineValue: Int { evaluation.answer.fineValue }

    /// The evaluation of `window` at the current hour: the kept one when `window` is the hour's.
    public func evaluation(in window: ConversionWindow) -> ActivityProgram.Answer {
        evaluation.answer.window == window
            ? evaluation.answer : artifact.program.evaluate(running, at: activity.hour, window: window)
    }

    /// Logs `event` at `hour`; an event the schema does not declare, or a value missing or given where the
    /// schema says otherwise, is left out (an app's logging never stops it).
    public mutating func log(_ event: InterpretedEvent, at hour: Double) {
        guard let (index, hasValue) = artifact.program.event(named: event.name), hasValue == (event.amount != nil)
        else { return }
        activity.events.append(InterpretedActivity.Record(event: index, hour: hour, amount: event.amount))
        running.log(LoggedEvent(event: index, hour: hour, amount: event.amount))
        activity.hour = max(activity.hour, hour)
        refresh(after: .logged(event: index))
    }

    /// Sets the app-set field `field` to its case `caseName`; false (nothing changed) for a field or case the
    /// schema does not have, or a derived field.
    public mutating func set(_ field: String, to caseName: String) -> Bool {
        guard let index = artifact.schema.fieldIndex(named: field), artifact.schema.fields[index].derivation == nil,
            let item = artifact.schema.fields[index].caseNamed(caseName)
        else { return false }
        activity.set[index] = item.code
        running.set(field: index, code: item.code)
        refresh(after: .set(field: index))
        return true
    }

    /// Moves time on to `hour`.
    public mutating func advance(to hour: Double) {
        guard hour > activity.hour else { return }
        activity.hour = hour
        refresh(after: .time)
    }

    /// Takes a kept activity back under `artifact`, the one it names (the safe point).
    public mutating func restore(_ activity: InterpretedActivity, with artifact: SchemaArtifact) {
        self.artifact = artifact
        self.activity = activity
        running = Self.running(activity, program: artifact.program)
        refresh()
    }
}
