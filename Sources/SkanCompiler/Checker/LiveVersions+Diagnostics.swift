public import SkanCore
public import SkanSchema

// The live-versions proof as diagnostics: the rule (which values two versions share) is the model's, the
// words and codes that report it are the compiler's.
extension LiveVersions {
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
