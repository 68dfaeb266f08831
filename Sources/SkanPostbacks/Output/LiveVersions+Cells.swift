package import SkanCore
package import SkanSchema

extension LiveVersions {
    /// What a postback row shows for fine value `fine`: the version it belongs to and, for each of
    /// `fieldColumns`, the name of its case (nil for a field that version does not have); nil when the value
    /// is a state of no version, or of several.
    package func fieldCases(fine: Int) -> (version: Int, cases: [String?])? {
        guard case .version(let schema) = owner(of: fine), case .success(let state) = schema.decode(fineValue: fine)
        else { return nil }
        let cases = schema.cases(of: state)
        return (
            schema.version,
            fieldColumns.map { column in
                schema.fields.firstIndex { ColumnNames.snakeCase($0.name) == column.name }.map { cases[$0]!.name }
            }
        )
    }

    /// What a coarse value means in `window`: the rule in words, one when every version agrees, else each
    /// version's (`v3: …; v4: …`), since a coarse value carries no version.
    package func coarseMeaning(_ value: CoarseValue, window: ConversionWindow) -> String {
        let rules = schemas.map { $0.ruleText(for: value, window: window) }
        return Set(rules).count == 1
            ? rules[0] : zip(schemas, rules).map { "v\($0.version): \($1)" }.joined(separator: "; ")
    }
}
