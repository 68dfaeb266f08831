import SkanCompiler
import SkanSchema

/// The declarations behind a `SchemaDiff`, in sentences: what moved in the layout, what was renamed, whose
/// description changed. Fields in the new schema's order, then fields that were removed.
struct DeclarationChanges {
    private(set) var layout: [String] = []
    private(set) var renames: [String] = []
    private(set) var descriptions: [String] = []

    init(old: Schema, new: Schema, correspondence: FieldCorrespondence) {
        if old.name != new.name { renames.append("schema `\(old.name)` is now `\(new.name)`") }
        for (newIndex, field) in new.fields.enumerated() {
            guard let oldIndex = correspondence.oldIndexOfNew[newIndex] else {
                layout.append("`\(field.name)` added at \(field.bits)")
                continue
            }
            compare(old.fields[oldIndex], field, caseNames: correspondence.caseNames[oldIndex] ?? [:])
        }
        for (oldIndex, field) in old.fields.enumerated() where correspondence.newIndexOfOld[oldIndex] == nil {
            layout.append("`\(field.name)` removed from \(field.bits)")
        }
        let (oldReserved, newReserved) = (old.reservedBits.map(\.text), new.reservedBits.map(\.text))
        if oldReserved != newReserved {
            let text = { (reserved: [String]) in reserved.isEmpty ? "none" : reserved.joined(separator: ", ") }
            layout.append("reserved: \(text(oldReserved)) → \(text(newReserved))")
        } else if old.reservedBits.map(\.description) != new.reservedBits.map(\.description) {
            descriptions.append("the description of reserved \(newReserved.joined(separator: ", "))")
        }
    }

    private mutating func compare(_ old: Field, _ new: Field, caseNames: [String: String]) {
        if old.name != new.name { renames.append("`\(old.name)` is now `\(new.name)` (\(new.bits))") }
        var changes: [String] = []
        if old.bits != new.bits { changes.append("\(old.bits) → \(new.bits)") }
        if old.kind != new.kind { changes.append("\(Self.kindName(old.kind)) → \(Self.kindName(new.kind))") }
        var (movedNames, oldCodes, newCodes): ([String], [String], [String]) = ([], [], [])
        for oldCase in old.cases {
            guard let newName = caseNames[oldCase.name], let newCase = new.caseNamed(newName) else { continue }
            if oldCase.name != newName { renames.append("`\(new.name).\(oldCase.name)` is now `\(newName)`") }
            if oldCase.code != newCase.code {
                movedNames.append(newName)
                oldCodes.append(String(oldCase.code))
                newCodes.append(String(newCase.code))
            }
            if oldCase.bucket != newCase.bucket {
                let range = { (bucket: BucketRange?) in bucket.map(\.description) ?? "no range" }
                changes.append("`\(newName)` covers \(range(newCase.bucket)), was \(range(oldCase.bucket))")
            }
            if oldCase.description != newCase.description, !new.isFlag {
                descriptions.append("`\(new.name).\(newName)`")
            }
        }
        if !movedNames.isEmpty {
            let plural = movedNames.count > 1 ? "s" : ""
            changes.append(
                "\(movedNames.joined(separator: "/")) moved from code\(plural) \(oldCodes.joined(separator: "/")) "
                    + "to \(newCodes.joined(separator: "/"))")
        }
        let kept = Set(caseNames.keys)
        let removed = old.cases.filter { !kept.contains($0.name) }.map(\.name)
        if !removed.isEmpty { changes.append("removed \(removed.joined(separator: ", "))") }
        let mapped = Set(caseNames.values)
        let added = new.cases.filter { !mapped.contains($0.name) }.map { "\($0.name) (code \($0.code))" }
        if !added.isEmpty { changes.append("added \(added.joined(separator: ", "))") }
        if !changes.isEmpty { layout.append("`\(new.name)`: " + changes.joined(separator: "; ")) }
        if old.description != new.description { descriptions.append("`\(new.name)`") }
    }

    private static func kindName(_ kind: Field.Kind) -> String {
        switch kind {
        case .flag: "flag"
        case .cases: "cases"
        case .buckets(let unit): "buckets of \(unit.rawValue)"
        }
    }
}
