public import SkanCore

/// Versions of one schema whose apps are in use at the same time, so their postbacks arrive mixed. Each
/// fine value must be valid in at most one of them for a postback to say which layout made it; reserved
/// bits with a code (`reserved bit 5 = 1` in version 4, `reserved bit 5` in version 3) are how a schema
/// keeps them apart. Coarse values carry no version (see docs/Evolution.md).
public struct LiveVersions: Sendable {
    /// Which version a fine value belongs to.
    public enum Owner: Hashable, Sendable {
        /// Valid in exactly this schema.
        case version(Schema)
        /// Valid in several: their versions, lowest first.
        case ambiguous([Int])
        /// Valid in none.
        case none
    }

    /// The schemas, lowest version first.
    public let schemas: [Schema]
    /// For each fine value 0...63, the indices in `schemas` of the versions where it is valid.
    private let owners: [[Int]]

    /// The versions, in any order.
    public init(_ schemas: [Schema]) {
        let sorted = schemas.sorted { $0.version < $1.version }
        self.schemas = sorted
        owners = Schema.fineValueRange.map { value in
            sorted.indices.filter { (try? sorted[$0].decode(fineValue: value).get()) != nil }
        }
    }

    /// The version `fineValue` belongs to.
    public func owner(of fineValue: Int) -> Owner {
        guard Schema.fineValueRange.contains(fineValue) else { return .none }
        let indices = owners[fineValue]
        switch indices.count {
        case 0: return .none
        case 1: return .version(schemas[indices[0]])
        default: return .ambiguous(indices.map { schemas[$0].version })
        }
    }

    /// The fields of every version as columns (snake_case names), the newest's first, then those only older
    /// versions have; each name once, with whether it is a flag (in the newest version that has it).
    public var fieldColumns: [(name: String, isFlag: Bool)] {
        var columns: [(name: String, isFlag: Bool)] = []
        for schema in schemas.reversed() {
            for field in schema.fields where !columns.contains(where: { $0.name == ColumnNames.snakeCase(field.name) })
            {
                columns.append((ColumnNames.snakeCase(field.name), field.isFlag))
            }
        }
        return columns
    }

    /// Fine values valid in more than one version, with those versions.
    public var overlaps: [(fineValue: Int, versions: [Int])] {
        Schema.fineValueRange.compactMap { value in
            owners[value].count > 1 ? (value, owners[value].map { schemas[$0].version }) : nil
        }
    }

    /// The proof for schemas read from named inputs (`skanc check --live-together A.skan B.skan`): each
    /// diagnostic with the name of the input whose version number it points at.
    /// With `sharedValues` false, only versions named twice are reported (what decoding cannot work with).
    public static func diagnostics(
        of inputs: [(name: String, schema: Schema, versionAt: SourceLocation)], sharedValues: Bool = true
    ) -> [(name: String, diagnostic: Diagnostic)] {
        let versions = LiveVersions(inputs.map(\.schema))
        let locations = Dictionary(inputs.map { ($0.schema.version, $0.versionAt) }) { first, _ in first }
        return versions.diagnostics(versionLocations: locations, sharedValues: sharedValues).map { diagnostic in
            let input = inputs.first { $0.versionAt == diagnostic.location } ?? inputs.first
            return (input?.name ?? "", diagnostic)
        }
    }

    /// The proof `skanc check --live-together` reports: an error for two schemas with the same version and
    /// one for each pair of versions that share valid values (with the values, as runs), located at the
    /// later version's number (`locations`: by version).
    public func diagnostics(versionLocations locations: [Int: SourceLocation], sharedValues: Bool = true)
        -> [Diagnostic]
    {
        var diagnostics: [Diagnostic] = []
        let nowhere = SourceLocation(line: 1, column: 1, offset: 0)
        for (earlier, later) in zip(schemas, schemas.dropFirst()) where earlier.version == later.version {
            diagnostics.append(
                .versionRepeated(later.version, at: locations[later.version] ?? nowhere))
        }
        for (i, older) in schemas.enumerated() where sharedValues {
            for newer in schemas[(i + 1)...] where newer.version != older.version {
                let shared = overlaps.filter {
                    $0.versions.contains(older.version) && $0.versions.contains(newer.version)
                }
                guard !shared.isEmpty else { continue }
                let values = shared.map(\.fineValue)
                diagnostics.append(
                    .versionsShareValues(
                        values, older: older.version, newer: newer.version, at: locations[newer.version] ?? nowhere))
            }
        }
        return diagnostics
    }
}

extension Diagnostic {
    fileprivate static func versionRepeated(_ version: Int, at location: SourceLocation) -> Diagnostic {
        .error(
            .versionOverlap, "two schemas have version \(version); live versions need their own numbers", at: location)
    }

    fileprivate static func versionsShareValues(
        _ values: [Int], older: Int, newer: Int, at location: SourceLocation
    ) -> Diagnostic {
        .error(
            .versionOverlap,
            "\(values.count) fine value\(values.count == 1 ? " is" : "s are") valid in both version \(older) and version \(newer), so their postbacks cannot be told apart: \(ValueRuns.text(values))",
            at: location,
            notes: [
                Diagnostic.Note(
                    "mark one version with reserved bits: 'reserved bit N' in version \(older) and 'reserved bit N = 1' in version \(newer)"
                )
            ])
    }
}
