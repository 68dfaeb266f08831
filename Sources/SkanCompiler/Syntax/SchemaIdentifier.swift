/// The rule for a name a tool writes into a schema (an imported event, `suggest`'s field): a letter or `_`, then
/// letters, digits and `_` (ASCII), and not one of the words the language reads as its own, so that the text
/// it writes parses with the name where it was put.
public enum SchemaIdentifier {
    /// Whether `name` can name a schema, an event, a flag or a field in written text.
    public static func isValid(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || first.properties.isAlphabetic, first.isASCII
        else { return false }
        return name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0))
        }
            && !keywords.contains(name)
    }

    /// Words the schema language reads as its own.
    package static let keywords: Set<String> = [
        "schema", "version", "event", "value", "flag", "field", "at", "bit", "bits", "buckets", "amount", "count",
        "of", "days", "within", "hours", "in", "window", "windows", "reserved", "coarse", "lock", "when",
        "otherwise", "after", "and", "or", "not", "low", "medium", "high",
    ]
}
