/// Column names in tables and postback output: snake_case names of fields. The fixed columns are declared by
/// their outputs (`TableColumn`, the postback columns) and reserved through `SchemaCompiler.compile`.
public enum ColumnNames {
    /// `paymentTier` → `payment_tier`, `dayOneAction` → `day_one_action`, `HTTPCode` → `http_code`,
    /// `reachedLevel10` → `reached_level10`.
    public static func snakeCase(_ name: String) -> String {
        let scalars = Array(name.unicodeScalars)
        var result = ""
        for (index, scalar) in scalars.enumerated() {
            let isUpper = ("A"..."Z").contains(scalar)
            if isUpper, index > 0 {
                let previous = scalars[index - 1]
                let previousIsLowerOrDigit = ("a"..."z").contains(previous) || ("0"..."9").contains(previous)
                let nextIsLower = index + 1 < scalars.count && ("a"..."z").contains(scalars[index + 1])
                let previousIsUpper = ("A"..."Z").contains(previous)
                if previousIsLowerOrDigit || (previousIsUpper && nextIsLower) { result += "_" }
            }
            result += isUpper ? String(scalar).lowercased() : String(scalar)
        }
        return result
    }

    /// Column names engines keep for themselves, with why: a field may not make one.
    public static let engineReserved: [String: String] = {
        var names: [String: String] = [:]
        for name in ["ctid", "oid", "xmin", "xmax", "cmin", "cmax", "tableoid"] {
            names[name] = "PostgreSQL keeps for a system column"
        }
        for name in ["true", "false"] { names[name] = "SQLite reads as a Boolean (a view names the column 'columnN')" }
        return names
    }()
}
