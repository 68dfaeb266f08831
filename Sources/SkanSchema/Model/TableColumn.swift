import SkanCore

/// A column of the decoding tables (`skanc table`): its name and what its cells hold. The fixed columns are
/// declared here, with the compiler, because the checker keeps their names from the fields; the tables
/// themselves are rendered by SkanSchemaTools.
public struct TableColumn: Sendable, Hashable {
    /// What a column's cells hold, which decides SQL types and JSON values.
    public enum Kind: Sendable, Hashable { case integer, text, boolean }
    /// The column's name, in snake_case.
    public var name: String
    /// What its cells hold.
    public var kind: Kind

    /// A column called `name` holding `kind`.
    public init(name: String, kind: Kind) {
        self.name = name
        self.kind = kind
    }

    /// The fine table's columns before the fields.
    package static let fineBeforeFields = [
        TableColumn(name: "fine_value", kind: .integer), TableColumn(name: "bits", kind: .text),
        TableColumn(name: "valid", kind: .boolean), TableColumn(name: "reason", kind: .text),
    ]
    /// With versions live together, after the fields (fine table) or first (coarse table).
    package static let schemaVersion = TableColumn(name: "schema_version", kind: .integer)
    /// The fine table's columns after the fields.
    package static let fineAfterFields =
        ConversionWindow.allCases.map { TableColumn(name: "coarse_window_\($0)", kind: .text) }
        + ConversionWindow.allCases.map { TableColumn(name: "lock_window_\($0)", kind: .boolean) }
    /// The coarse table's columns.
    package static let coarseTable = [
        TableColumn(name: "window", kind: .integer), TableColumn(name: "coarse_value", kind: .text),
        TableColumn(name: "rule", kind: .text), TableColumn(name: "states", kind: .integer),
    ]

    /// Every column name of `skanc table` that is not a field's, in every format: a field may not take one.
    public static var reservedNames: [String] {
        (fineBeforeFields + [schemaVersion] + fineAfterFields + coarseTable).map(\.name)
    }
}
