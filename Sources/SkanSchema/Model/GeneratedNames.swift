/// The names the generated Swift code derives from a schema's names. (Which names it needs for itself, and how
/// collisions are resolved, is `SwiftNamePlan`'s.)
public enum GeneratedNames {
    /// The type a field generates: its name in UpperCamelCase (`paymentTier` → `PaymentTier`).
    public static func typeName(ofField name: String) -> String {
        guard let first = name.unicodeScalars.first else { return name }
        return String(first).uppercased() + String(name.unicodeScalars.dropFirst())
    }
}
