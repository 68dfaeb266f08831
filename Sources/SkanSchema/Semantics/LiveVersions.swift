/// Versions of one schema whose apps are in use at the same time, so their postbacks arrive mixed. Each
/// fine value must be valid in at most one of them for a postback to say which layout made it; reserved
/// bits with a code (`reserved bit 5 = 1` in version 4, `reserved bit 5` in version 3) are how a schema
/// keeps them apart. Coarse values carry no version (see docs/Evolution.md).
public struct LiveVersions: Sendable {
    /// Which version a fine value belongs to.
    public enum Owner: Hashable, Sendable {
        /// Valid in exactly this schema.
        case version(Schema)
        /// Valid in several: their versions, lowest first.
        case ambiguous([Int])
        /// Valid in none.
        case none
    }

    /// The schemas, lowest version first.
    public let schemas: [Schema]
    /// For each fine value 0...63, the indices in `schemas` of the versions where it is valid.
    private let owners: [[Int]]

    /// The versions, in any order.
    public init(_ schemas: [Schema]) {
        let sorted = schemas.sorted { $0.version < $1.version }
        self.schemas = sorted
        owners = Schema.fineValueRange.map { value in
            sorted.indices.filter { (try? sorted[$0].decode(fineValue: value).get()) != nil }
        }
    }

    /// The version `fineValue` belongs to.
    public func owner(of fineValue: Int) -> Owner {
        guard Schema.fineValueRange.contains(fineValue) else { return .none }
        let indices = owners[fineValue]
        switch indices.count {
        case 0: return .none
        case 1: return .version(schemas[indices[0]])
        default: return .ambiguous(indices.map { schemas[$0].version })
        }
    }

    /// The fields of every version as columns (snake_case names), the newest's first, then those only older
    /// versions have; each name once, with whether it is a flag (in the newest version that has it).
    public var fieldColumns: [(name: String, isFlag: Bool)] {
        var columns: [(name: String, isFlag: Bool)] = []
        for schema in schemas.reversed() {
            for field in schema.fields where !columns.contains(where: { $0.name == ColumnNames.snakeCase(field.name) })
            {
                columns.append((ColumnNames.snakeCase(field.name), field.isFlag))
            }
        }
        return columns
    }

    /// Fine values valid in more than one version, with those versions.
    public var overlaps: [(fineValue: Int, versions: [Int])] {
        Schema.fineValueRange.compactMap { value in
            owners[value].count > 1 ? (value, owners[value].map { schemas[$0].version }) : nil
        }
    }
}
