public import SkanSchema

/// The manifests an app's installs saw over time, each in force from its second until the next: what
/// `skanc simulate --schedule` runs devices against. A device that fetched at a second uses the manifest then
/// in force, chosen by `SchemaManifest.version(forInstall:)` as apps choose; before the first, the bundled one.
public struct PublishTimeline: Sendable {
    /// The manifests in the order they were issued, each from its second (since the run's start).
    public private(set) var manifests: [(from: Int, manifest: SchemaManifest)] = []
    /// Every version published so far, by number.
    public private(set) var schemas: [Int: Schema] = [:]

    /// An empty timeline: every device uses its bundled schema.
    public init() {}

    /// Adds `manifest`, in force from `second`, with the schemas of every version published by then.
    public mutating func append(from second: Int, manifest: SchemaManifest, schemas: [Int: Schema]) {
        manifests.append((second, manifest))
        self.schemas.merge(schemas) { old, _ in old }
    }

    /// The manifest in force at `second`; nil before the first.
    public func manifest(at second: Int) -> SchemaManifest? {
        // The last manifest issued at or before `second` (a binary search: runs ask once per conversion).
        var low = 0
        var high = manifests.count
        while low < high {
            let middle = (low + high) / 2
            if manifests[middle].from <= second { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : manifests[low - 1].manifest
    }

    /// The schema an install uses when its device last fetched at `second`: the manifest's choice for it,
    /// else `bundled`.
    public func schema(at second: Int, installID: String, bundled: Schema) -> Schema {
        guard let version = manifest(at: second)?.version(forInstall: installID) else { return bundled }
        return schemas[version] ?? bundled
    }
}
