public import SkanCore
public import SkanRuntime
import SkanSchema
public import SkanSchemaArtifact

/// What an app tells the interpreter: the artifact a new conversion starts with (the one `RemoteSchemaSource`
/// says is in force for the install), and any artifact by its name, for a conversion that started with it.
public protocol InterpretedSchemas: Sendable {
    /// The artifact new conversions use.
    static func current() -> SchemaArtifact
    /// The artifact named `name` (its SHA-256), if the app still holds it.
    static func artifact(named name: String) -> SchemaArtifact?
}

/// A schema's state interpreted from its artifact: what the type `skanc generate` writes does, for a schema
/// fetched over the air, by the reference semantics themselves (`RunningActivity`). It conforms to the runtime's
/// state protocols, so `ConversionValueUpdater`, `PostbackCoordinator`, tags and re-engagements work unchanged.
/// A safe point: a conversion keeps the artifact it started with for all its windows (the kept activity names
/// it), so all its postbacks are decoded by one version; a new version applies to conversions that start after
/// it arrives.
public struct InterpretedState<Schemas: InterpretedSchemas>: EventConversionValueState {
    /// An event as the app logs it: its name in the schema, and its amount for a value event.
    public struct Event: Sendable, Hashable {
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

    /// What is kept between launches: the artifact's name, what was logged and set, and the hour.
    public struct Activity: Codable, Sendable, Hashable {
        /// The artifact the conversion started with (its SHA-256).
        public var artifact: String
        /// Events logged: index in the schema, hour, amount.
        public var events: [LoggedRecord] = []
        /// App-set fields: index and code.
        public var set: [Int: Int] = [:]
        /// Hours since the conversion's start.
        public var hour: Double = 0
    }

    /// One logged event, as kept.
    public struct LoggedRecord: Codable, Sendable, Hashable {
        /// The event's index in the schema.
        public var event: Int
        /// When, in hours since the conversion's start.
        public var hour: Double
        /// Its amount, for a value event.
        public var amount: Double?
    }

    /// The coarse value type.
    public typealias Coarse = CoarseValue
    /// The conversion window type.
    public typealias Window = ConversionWindow

    /// The artifact this conversion interprets.
    public private(set) var artifact: SchemaArtifact
    /// What was logged and set.
    public private(set) var activity: Activity
    /// The activity's counts, sums and sources, kept up to date as it grows: a query costs the same whatever
    /// came before (rebuilt only when a kept activity is restored).
    private var running: RunningActivity
    /// The schema evaluated at the activity's hour, made once per change: the updater asks the fine value, the
    /// window's coarse value and its lock of the same state, and each answer reads it.
    private var evaluation: ActivityEvaluation

    /// A conversion that starts now, with the artifact in force.
    public init() {
        let artifact = Schemas.current()
        self.artifact = artifact
        activity = Activity(artifact: artifact.fileName)
        running = RunningActivity(schema: artifact.schema)
        evaluation = running.evaluate(at: 0)
    }

    /// The state a fine value encodes under the artifact in force (its app-set fields); throws for a value that is
    /// no state of the schema.
    public init(fineValue: Int) throws {
        self.init()
        let state = try artifact.schema.decode(fineValue: fineValue).get()
        for (index, field) in artifact.schema.fields.enumerated() where field.derivation == nil {
            activity.set[index] = state.codes[index]
            running.set(field: index, code: state.codes[index])
        }
        evaluation = running.evaluate(at: activity.hour)
    }

    /// Two states are equal when they interpret the same artifact with the same activity.
    public static func == (left: Self, right: Self) -> Bool { left.activity == right.activity }

    /// The running activity of a kept `activity` under `schema`.
    private static func running(_ activity: Activity, schema: Schema) -> RunningActivity {
        var running = RunningActivity(schema: schema)
        // A kept activity read back from disk: events past its hour (never logged so) are left out.
        for record in activity.events where record.hour <= activity.hour {
            running.log(LoggedEvent(event: record.event, hour: record.hour, amount: record.amount))
        }
        for (index, code) in activity.set { running.set(field: index, code: code) }
        return running
    }

    /// The fine value at the current hour.
    public var fineValue: Int { evaluation.fineValue }

    /// The evaluation of `window` at the current hour: the kept one when `window` is the hour's.
    private func evaluation(in window: ConversionWindow) -> ActivityEvaluation {
        evaluation.window == window ? evaluation : running.evaluate(at: activity.hour, window: window)
    }

    /// The coarse value of `window` at the current hour (`low` where a `nothing` rule holds: nothing is sent).
    public func coarseValue(in window: ConversionWindow) -> CoarseValue {
        evaluation(in: window).coarseValue ?? .low
    }

    /// Whether `window` locks at the current hour.
    public func shouldLock(in window: ConversionWindow) -> Bool {
        evaluation(in: window).lock
    }

    /// Whether an update is sent in `window` at the current hour (not where a `nothing` rule holds).
    public func sendsUpdate(in window: ConversionWindow) -> Bool {
        evaluation(in: window).sends
    }

    /// Logs `event` at `hour`; an event the schema does not declare, or a value missing or given where the
    /// schema says otherwise, is left out (an app's logging never stops it).
    public mutating func log(_ event: Event, at hour: Double) {
        guard let index = artifact.schema.eventIndex(named: event.name),
            artifact.schema.events[index].hasValue == (event.amount != nil)
        else { return }
        activity.events.append(LoggedRecord(event: index, hour: hour, amount: event.amount))
        running.log(LoggedEvent(event: index, hour: hour, amount: event.amount))
        activity.hour = max(activity.hour, hour)
        evaluation = running.evaluate(at: activity.hour)
    }

    /// Sets the app-set field `field` to its case `caseName`; false (nothing changed) for a field or case the
    /// schema does not have, or a derived field.
    @discardableResult
    public mutating func set(_ field: String, to caseName: String) -> Bool {
        guard let index = artifact.schema.fieldIndex(named: field), artifact.schema.fields[index].derivation == nil,
            let item = artifact.schema.fields[index].caseNamed(caseName)
        else { return false }
        activity.set[index] = item.code
        running.set(field: index, code: item.code)
        evaluation = running.evaluate(at: activity.hour)
        return true
    }

    /// Moves time on to `hour`.
    public mutating func advance(to hour: Double) {
        guard hour > activity.hour else { return }
        activity.hour = hour
        evaluation = running.evaluate(at: hour)
    }

    /// Takes a kept activity back, with the artifact it names (the safe point), when the app still holds it.
    public mutating func restore(_ activity: Activity) {
        guard let artifact = Schemas.artifact(named: activity.artifact) else { return }
        self.artifact = artifact
        self.activity = activity
        running = Self.running(activity, schema: artifact.schema)
        evaluation = running.evaluate(at: activity.hour)
    }
}
