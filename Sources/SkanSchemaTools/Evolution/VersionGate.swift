import SkanCompiler
public import SkanCore
public import SkanSchema

/// `skanc check --against OLD`: the rule that keeps versions honest, so postbacks can always be decoded
/// with the layout that made them. Values that change meaning need a higher version; a version never goes
/// down; and a higher version with no change is suspicious (a warning), since it splits reports for nothing.
public enum VersionGate {
    /// The diagnostics for moving from `old` to `new`, located at `new`'s version number.
    public static func diagnostics(old: Schema, new: Schema, versionAt location: SourceLocation) -> [Diagnostic] {
        let diff = SchemaDiff(old: old, new: new)
        if new.version < old.version {
            // The version it should be: above the old one when values change meaning, else the old one.
            let fixed = diff.changesMeaning ? old.version + 1 : old.version
            return [
                .versionDecreased(
                    new.version, below: old.version, at: location, fixIts: fix(new.version, fixed, location))
            ]
        }
        if diff.changesMeaning, new.version == old.version {
            let notes = diff.sections.filter { ["Fine values", "Coarse values"].contains($0.title) }
                .flatMap { section in section.items.map { Diagnostic.Note("\(section.title.lowercased()): \($0)") } }
            return [
                .versionUnchanged(
                    old.version, at: location, notes: notes, fixIts: fix(new.version, old.version + 1, location))
            ]
        }
        if !diff.changesMeaning, new.version > old.version {
            return [
                .versionBumpUnneeded(
                    from: old.version, to: new.version, at: location, fixIts: fix(new.version, old.version, location))
            ]
        }
        return []
    }

    /// The fix-it that writes `version` over the version number `written` at `location`.
    private static func fix(_ written: Int, _ version: Int, _ location: SourceLocation) -> [Diagnostic.FixIt] {
        [Diagnostic.FixIt(replacing: String(written), at: location, with: String(version))]
    }
}

extension Diagnostic {
    fileprivate static func versionDecreased(
        _ version: Int, below old: Int, at location: SourceLocation, fixIts: [FixIt]
    ) -> Diagnostic {
        .error(
            .versionDecreased,
            "version \(version) is below \(old), the version of the schema it replaces; versions only go up",
            at: location, fixIts: fixIts)
    }

    fileprivate static func versionUnchanged(
        _ version: Int, at location: SourceLocation, notes: [Note], fixIts: [FixIt]
    ) -> Diagnostic {
        .error(
            .versionUnchanged,
            "values change meaning but the version is still \(version); make it \(version + 1), so postbacks from both layouts can be told apart",
            at: location, notes: notes, fixIts: fixIts)
    }

    fileprivate static func versionBumpUnneeded(
        from old: Int, to new: Int, at location: SourceLocation, fixIts: [FixIt]
    ) -> Diagnostic {
        .warning(
            .versionBumpUnneeded,
            "the version goes from \(old) to \(new) but no value changes meaning; keep \(old) unless the layouts must be told apart",
            at: location, fixIts: fixIts)
    }
}

extension DiagnosticCode {
    /// `check --against OLD`: OLD has errors of its own, so no version can be checked against it.
    public static let againstHasErrors = DiagnosticCode("against-has-errors")
}

extension VersionGate {
    /// The error of a schema named by `--against` that has errors (printed after them, at its file).
    public static func againstHasErrors() -> Diagnostic {
        .error(.againstHasErrors, "the schema to check against has errors; fix them or name another", at: nil)
    }
}
