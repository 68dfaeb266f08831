public import SkanCore

/// `skanc check --against OLD`: the rule that keeps versions honest, so postbacks can always be decoded
/// with the layout that made them. Values that change meaning need a higher version; a version never goes
/// down; and a higher version with no change is suspicious (a warning), since it splits reports for nothing.
public enum VersionGate {
    /// The diagnostics for moving from `old` to `new`, located at `new`'s version number.
    public static func diagnostics(old: Schema, new: Schema, versionAt location: SourceLocation) -> [Diagnostic] {
        let diff = SchemaDiff(old: old, new: new)
        if new.version < old.version {
            return [
                .error(
                    .versionDecreased,
                    "version \(new.version) is below \(old.version), the version of the schema it replaces; versions only go up",
                    at: location)
            ]
        }
        if diff.changesMeaning, new.version == old.version {
            let notes = diff.sections.filter { ["Fine values", "Coarse values"].contains($0.title) }
                .flatMap { section in section.items.map { Diagnostic.Note("\(section.title.lowercased()): \($0)") } }
            return [
                .error(
                    .versionUnchanged,
                    "values change meaning but the version is still \(old.version); make it \(old.version + 1), so postbacks from both layouts can be told apart",
                    at: location, notes: notes)
            ]
        }
        if !diff.changesMeaning, new.version > old.version {
            return [
                .warning(
                    .versionBumpUnneeded,
                    "the version goes from \(old.version) to \(new.version) but no value changes meaning; keep \(old.version) unless the layouts must be told apart",
                    at: location)
            ]
        }
        return []
    }
}
