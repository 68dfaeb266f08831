import SkanCore
import SkanSchema

extension Schema {
    /// The fields a window's values depend on, ascending: in window 1 every field (the fine value holds them
    /// all); in windows 2 and 3 those their coarse rules and lock read, with the fields those fields' conditions
    /// read.
    func fieldsRead(in window: ConversionWindow) -> [Int] {
        if window == .first { return Array(fields.indices) }
        var wanted = coarseRules(window: window).reduce(into: Set<Int>()) { $0.formUnion($1.condition.fieldsRead) }
        wanted.formUnion(lockCondition(window: window)?.fieldsRead ?? [])
        var frontier = Array(wanted)
        while let field = frontier.popLast() {
            for read in Self.conditionFields(of: fields[field]) where wanted.insert(read).inserted {
                frontier.append(read)
            }
        }
        return wanted.sorted()
    }

    private static func conditionFields(of field: Field) -> Set<Int> {
        switch field.derivation {
        case .flag(let condition)?: condition.fieldsRead
        case .firstMatch(let conditions)?: conditions.reduce(into: []) { $0.formUnion($1.fieldsRead) }
        default: []
        }
    }
}
