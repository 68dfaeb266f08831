import SkanCompiler
import SkanSchema

/// Which field of one schema is which field of another, and which case is which: the ground `SchemaDiff`
/// stands on. A field keeps its identity through a rename when its bits, kind and codes stay; a case when
/// its code (and bucket) stays. Names decide first, so a renamed field is only ever one nothing else claims.
struct FieldCorrespondence {
    /// For each field of the old schema, the index of the same field in the new one.
    let newIndexOfOld: [Int?]
    /// For each field of the new schema, the index of the same field in the old one.
    let oldIndexOfNew: [Int?]
    /// For each field of the old schema, its name in the new one.
    let newNames: [String?]
    /// For each matched old field, old case name → new case name (the same name unless renamed).
    let caseNames: [Int: [String: String]]
    /// New fields on bits no old field had (reserved or unused, so zero in every valid old value), as
    /// `SchemaDiff.meaning` writes their zero case: an old value reads as "nothing happened" there, which is
    /// what the layout convention of reserving bits for a later version promises.
    let zeroExtensions: [String]

    init(old: Schema, new: Schema) {
        var newIndexOfOld = [Int?](repeating: nil, count: old.fields.count)
        var oldIndexOfNew = [Int?](repeating: nil, count: new.fields.count)
        for (oldIndex, field) in old.fields.enumerated() {
            if let newIndex = new.fieldIndex(named: field.name) {
                newIndexOfOld[oldIndex] = newIndex
                oldIndexOfNew[newIndex] = oldIndex
            }
        }
        // Renames: an unclaimed old field and an unclaimed new field with the same bits, kind and codes.
        for (oldIndex, field) in old.fields.enumerated() where newIndexOfOld[oldIndex] == nil {
            let candidate = new.fields.indices.first { newIndex in
                let other = new.fields[newIndex]
                return oldIndexOfNew[newIndex] == nil && other.bits == field.bits && other.kind == field.kind
                    && Set(other.cases.map(\.code)) == Set(field.cases.map(\.code))
            }
            if let candidate {
                newIndexOfOld[oldIndex] = candidate
                oldIndexOfNew[candidate] = oldIndex
            }
        }
        var caseNames: [Int: [String: String]] = [:]
        for (oldIndex, newIndex) in newIndexOfOld.enumerated() {
            guard let newIndex else { continue }
            caseNames[oldIndex] = Self.caseNames(old.fields[oldIndex], new.fields[newIndex])
        }
        (self.newIndexOfOld, self.oldIndexOfNew, self.caseNames) = (newIndexOfOld, oldIndexOfNew, caseNames)
        newNames = newIndexOfOld.map { $0.map { new.fields[$0].name } }
        let oldMask = old.fields.reduce(0) { $0 | $1.bits.mask }
        zeroExtensions = new.fields.indices.compactMap { index in
            let field = new.fields[index]
            guard oldIndexOfNew[index] == nil, field.bits.mask & oldMask == 0, let zero = field.caseWithCode(0) else {
                return nil
            }
            return SchemaDiff.meaning(of: field, zero)
        }
    }

    /// Old case name → new case name: by name, then an unclaimed case with the same code and bucket.
    private static func caseNames(_ old: Field, _ new: Field) -> [String: String] {
        var names: [String: String] = [:]
        var claimed: Set<String> = []
        for fieldCase in old.cases where new.caseNamed(fieldCase.name) != nil {
            names[fieldCase.name] = fieldCase.name
            claimed.insert(fieldCase.name)
        }
        for fieldCase in old.cases where names[fieldCase.name] == nil {
            if let renamed = new.cases.first(where: {
                !claimed.contains($0.name) && old.caseNamed($0.name) == nil && $0.code == fieldCase.code
                    && $0.bucket == fieldCase.bucket
            }) {
                names[fieldCase.name] = renamed.name
                claimed.insert(renamed.name)
            }
        }
        return names
    }
}
