import Foundation
import SkanCompiler
import SkanCore
public import SkanSchema

/// Every schema the repository ships (Schemas/ and Schemas/Platforms/), by path from the package root.
public enum ShippedSchemas {
    /// The paths, sorted.
    public static let all: [String] = ["", "Platforms/"].flatMap { folder in
        ((try? Paths.files(in: Paths.schemas.appendingPathComponent(folder), extension: "skan")) ?? [])
            .map { "Schemas/" + folder + $0.lastPathComponent }
    }.sorted()

    /// The schema at `path`, compiled; throws when it has errors.
    public static func compile(_ path: String) throws -> Schema {
        let text = try String(contentsOf: Paths.packageRoot.appendingPathComponent(path), encoding: .utf8)
        let result = SchemaCompiler.compile(text, path: path)
        guard let schema = result.schema else { throw UncleanSchema(name: path, diagnostics: result.diagnostics) }
        return schema
    }
}

/// Amounts for journeys that test bounds: each bucket's lower bound and the cent below it, each amount a
/// condition names and the cent below it, and a few others.
public enum JourneyAmounts {
    /// The amounts for `schema`, ascending.
    public static func edges(of schema: Schema) -> [Double] {
        var amounts: Set<Double> = [0, 0.5, 3, 250]
        for field in schema.fields {
            for fieldCase in field.cases {
                guard let bucket = fieldCase.bucket else { continue }
                amounts.insert(bucket.lower)
                amounts.insert(max(0, bucket.lower - 0.01))
                if let upper = bucket.upper { amounts.insert(upper) }
            }
        }
        var conditions = schema.fields.flatMap { field -> [Condition] in
            switch field.derivation {
            case .flag(let condition)?: [condition]
            case .firstMatch(let conditions)?: conditions
            default: []
            }
        }
        for window in ConversionWindow.allCases {
            conditions += schema.coarseRules(window: window).map(\.condition)
            conditions += schema.lockCondition(window: window).map { [$0] } ?? []
        }
        for amount in conditions.flatMap(summedAmounts) {
            amounts.insert(amount)
            amounts.insert(max(0, amount - 0.01))
        }
        return amounts.sorted()
    }

    /// The amounts `EVENT.sum` is compared with in `condition`.
    static func summedAmounts(_ condition: Condition) -> [Double] {
        switch condition {
        case .eventMeasure(_, .sum, _, let amount): [amount]
        case .not(let inner): summedAmounts(inner)
        case .all(let parts), .any(let parts): parts.flatMap(summedAmounts)
        default: []
        }
    }
}
