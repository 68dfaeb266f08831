import SkanCore

/// Names that the generated Swift code defines itself, so a schema may not use them (diagnostic `name`).
/// Swift keywords are not listed: the generator escapes those.
public enum GeneratedNames {
    /// Members of the generated state type that a flag or field name would collide with. (`Self` and
    /// `Swift` as properties would hide the type's own `Self` and the standard library's module name, which
    /// the generated code uses.)
    public static let stateMembers: Set<String> = [
        "fineValue", "coarseValue", "shouldLock", "schemaVersion", "schemaName", "hashValue", "Self", "Swift",
    ]

    /// Types nested in the generated state type that a field's type name would collide with.
    /// `Swift` would hide the standard library's module name, which the generated code spells out.
    public static let nestedTypes: Set<String> = ["CoarseValue", "FineValueError", "Window", "Swift"]

    /// Members of a generated field enum that a case name would collide with.
    public static let caseMembers: Set<String> = ["allCases", "rawValue", "hashValue"]

    /// The type a field generates: its name in UpperCamelCase (`paymentTier` → `PaymentTier`).
    public static func typeName(ofField name: String) -> String {
        guard let first = name.unicodeScalars.first else { return name }
        return String(first).uppercased() + String(name.unicodeScalars.dropFirst())
    }
}
