import SkanCompiler
public import SkanCore
public import SkanSchema

/// What values mean when several versions of a schema are live at once (`skanc decode V3.skan,V4.skan …`): a
/// fine value is explained with the one version where it is valid, or reported as valid in several
/// (`ambiguous-version`) or in none (`invalid-fine`); a coarse value carries no version, so it is explained
/// with each. One schema is the case of one version.
public struct LiveExplanation: Sendable {
    /// One value's outcome.
    public enum Item: Sendable {
        /// Explained with a version (`schemaVersion` nil when only one schema is live).
        case explained(ValueExplanation, schema: Schema, schemaVersion: Int?)
        /// A fine value valid in several versions.
        case ambiguous(fine: Int, versions: [Int])
        /// A fine value valid in none.
        case invalid(fine: Int)
    }

    /// In the order of the values, then of the windows.
    public var items: [Item]
    /// The schema the messages name.
    private var newest: Schema
    private var versions: [Int]

    /// `values` explained with `live`, coarse values in `windows`.
    public init(_ values: [String], in live: LiveVersions, windows: [ConversionWindow]) {
        newest = live.schemas.last!
        versions = live.schemas.map(\.version)
        let single = live.schemas.count == 1
        items = values.flatMap { value -> [Item] in
            func explained(_ schema: Schema) -> [Item] {
                ValueExplanation.explain(value, in: schema, windows: windows).map {
                    .explained($0, schema: schema, schemaVersion: single ? nil : schema.version)
                }
            }
            guard let fine = Int(value), !single else { return live.schemas.flatMap(explained) }
            switch live.owner(of: fine) {
            case .version(let schema): return explained(schema)
            case .ambiguous(let versions): return [.ambiguous(fine: fine, versions: versions)]
            case .none: return [.invalid(fine: fine)]
            }
        }
    }

    /// Whether every value decoded.
    public var decoded: Bool {
        items.allSatisfy {
            if case .explained(let explanation, _, _) = $0 { explanation.decoded } else { false }
        }
    }

    /// One paragraph per item.
    public var text: String {
        items.map { item in
            switch item {
            case .explained(let explanation, let schema, _): explanation.text(schema: schema)
            case .ambiguous(let fine, let versions):
                "\(fine): ambiguous-version: valid in versions \(versions.map(String.init).joined(separator: ", ")) of \(newest.name); 'skanc check --live-together' shows how to tell them apart\n"
            case .invalid(let fine):
                "\(fine): invalid-fine: valid in none of versions \(versions.map(String.init).joined(separator: ", ")) of \(newest.name)\n"
            }
        }.joined()
    }

    /// A JSON array, one object per item.
    public var json: String {
        JSONValue.array(
            items.map { item in
                switch item {
                case .explained(let explanation, _, let version):
                    version.map { explanation.json(schemaVersion: $0) } ?? explanation.json()
                case .ambiguous(let fine, let versions):
                    .object([
                        ("value", .integer(fine)), ("status", .string("ambiguous-version")),
                        ("versions", .array(versions.map(JSONValue.integer))),
                    ])
                case .invalid(let fine):
                    .object([("value", .integer(fine)), ("status", .string("invalid-fine"))])
                }
            }
        ).rendered() + "\n"
    }
}
