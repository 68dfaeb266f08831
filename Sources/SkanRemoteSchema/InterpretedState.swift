public import SkanCore
public import SkanRuntime
public import SkanSchema
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
/// fetched over the air, by the schema's compiled program (`ActivityProgram`, held to the reference semantics).
/// It conforms to the runtime's state protocols, so `ConversionValueUpdater`, `PostbackCoordinator`, tags and
/// re-engagements work unchanged. A safe point: a conversion keeps the artifact it started with for all its
/// windows (the kept activity names it), so all its postbacks are decoded by one version; a new version applies
/// to conversions that start after it arrives. The work is `InterpretedConversion`'s; these forwarders are
/// inlined into the app, so no event reaches it through generic metadata.
public struct InterpretedState<Schemas: InterpretedSchemas>: EventConversionValueState {
    /// An event as the app logs it: its name in the schema, and its amount for a value event.
    public typealias Event = InterpretedEvent
    /// What is kept between launches: the artifact's name, what was logged and set, and the hour.
    public typealias Activity = InterpretedActivity
    /// The coarse value type.
    public typealias Coarse = CoarseValue
    /// The conversion window type.
    public typealias Window = ConversionWindow

    @usableFromInline var conversion: InterpretedConversion

    /// A conversion that starts now, with the artifact in force.
    @inlinable public init() {
        conversion = InterpretedConversion(Schemas.current())
    }

    /// The state a fine value encodes under the artifact in force (its app-set fields); throws for a value that is
    /// no state of the schema.
    @inlinable public init(fineValue: Int) throws {
        conversion = try InterpretedConversion(Schemas.current(), fineValue: fineValue)
    }

    /// Two states are equal when they interpret the same artifact with the same activity.
    @inlinable public static func == (left: Self, right: Self) -> Bool {
        left.conversion.activity == right.conversion.activity
    }

    /// The artifact this conversion interprets.
    @inlinable public var artifact: SchemaArtifact { conversion.artifact }
    /// What was logged and set.
    @inlinable public var activity: Activity { conversion.activity }
    /// The fine value at the current hour.
    @inlinable public var fineValue: Int { conversion.fineValue }

    /// The coarse value of `window` at the current hour (`low` where a `nothing` rule holds: nothing is sent).
    @inlinable public func coarseValue(in window: ConversionWindow) -> CoarseValue {
        conversion.evaluation(in: window).coarseValue ?? .low
    }

    /// Whether `window` locks at the current hour.
    @inlinable public func shouldLock(in window: ConversionWindow) -> Bool {
        conversion.evaluation(in: window).lock
    }

    /// Whether an update is sent in `window` at the current hour (not where a `nothing` rule holds).
    @inlinable public func sendsUpdate(in window: ConversionWindow) -> Bool {
        conversion.evaluation(in: window).sends
    }

    /// Logs `event` at `hour`; an event the schema does not declare, or a value missing or given where the
    /// schema says otherwise, is left out (an app's logging never stops it).
    @inlinable public mutating func log(_ event: Event, at hour: Double) {
        conversion.log(event, at: hour)
    }

    /// Sets the app-set field `field` to its case `caseName`; false (nothing changed) for a field or case the
    /// schema does not have, or a derived field.
    @discardableResult
    @inlinable public mutating func set(_ field: String, to caseName: String) -> Bool {
        conversion.set(field, to: caseName)
    }

    /// Moves time on to `hour`.
    @inlinable public mutating func advance(to hour: Double) {
        conversion.advance(to: hour)
    }

    /// Takes a kept activity back, with the artifact it names (the safe point), when the app still holds it.
    @inlinable public mutating func restore(_ activity: Activity) {
        guard let artifact = Schemas.artifact(named: activity.artifact) else { return }
        conversion.restore(activity, with: artifact)
    }
}
