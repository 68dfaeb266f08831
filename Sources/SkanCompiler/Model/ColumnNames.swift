/// Column names in tables and postback output: snake_case names of fields, beside fixed columns.
public enum ColumnNames {
    /// Columns every decoding table or postback file output has; a field may not take one of these names.
    public static let fixed: Set<String> = [
        "fine_value", "bits", "valid", "reason", "window", "coarse_value", "rule", "states",
        "coarse_window_1", "coarse_window_2", "coarse_window_3", "lock_window_1", "lock_window_2", "lock_window_3",
        "line", "status", "kind", "version", "transaction_id", "ad_network_id", "source_id", "app_id",
        "postback_sequence_index", "did_win", "fidelity_type", "redownload", "country_code", "coarse_meaning",
    ]

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
}
