public import SkanCore

/// Where a schema's declarations are written, for diagnostics of later stages (an export that cannot say a
/// field, say). Not part of what a schema means: two schemas equal in meaning are equal wherever their
/// declarations stand, so every site compares equal and hashes to nothing.
public struct DeclarationSites: Hashable, Sendable {
    /// Each field's name, by field index.
    public var fields: [SourceLocation]
    /// Each event's name, by event index.
    public var events: [SourceLocation]
    /// Each window's `lock` keyword, where the window has a lock.
    public var locks: PerWindow<SourceLocation?>

    /// Sites as the checker records them; none by default (a schema built in code).
    public init(
        fields: [SourceLocation] = [], events: [SourceLocation] = [],
        locks: PerWindow<SourceLocation?> = PerWindow { _ in nil }
    ) {
        self.fields = fields
        self.events = events
        self.locks = locks
    }

    /// The site of field `index`, if recorded.
    public func field(_ index: Int) -> SourceLocation? { fields.indices.contains(index) ? fields[index] : nil }

    /// The site of event `index`, if recorded.
    public func event(_ index: Int) -> SourceLocation? { events.indices.contains(index) ? events[index] : nil }

    /// Always equal: sites say where, not what.
    public static func == (left: DeclarationSites, right: DeclarationSites) -> Bool { true }

    /// Nothing: sites say where, not what.
    public func hash(into hasher: inout Hasher) {}
}
