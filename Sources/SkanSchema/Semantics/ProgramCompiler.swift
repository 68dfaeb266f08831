import SkanCore

/// Compiles a schema's conditions, `firstMatch` choices and buckets into the program's flat tables.
struct ProgramCompiler {
    let schema: Schema
    var conditions: ConditionCompiler
    var choices: [(condition: Range<Int>, code: Int)] = []
    var buckets: [ActivityProgram.Bucket] = []

    init(schema: Schema) {
        self.schema = schema
        conditions = ConditionCompiler(fields: schema.fields.count, events: schema.events.count)
    }

    /// The step of field `index`: what `RunningActivity.evaluate(at:window:)` does for it.
    mutating func step(field index: Int) -> ActivityProgram.Step {
        let field = schema.fields[index]
        switch field.derivation {
        case nil:
            return .set
        case .flag(let condition):
            return .flag(conditions.compile(condition))
        case .firstMatch(let derived):
            let first = choices.count
            for (condition, item) in zip(derived, field.cases) {
                choices.append((conditions.compile(condition), item.code))
            }
            return .firstMatch(first..<choices.count, fallback: field.cases.last?.code ?? 0)
        case .buckets(let source):
            let first = buckets.count
            for item in field.cases {
                guard let bucket = item.bucket else { continue }
                buckets.append(
                    .init(lower: bucket.lower, upper: bucket.upper, isHalfOpen: bucket.isHalfOpen, code: item.code))
            }
            return .buckets(first..<buckets.count, Self.measure(field: index, source))
        case .count(let source):
            return .count(maximum: field.bits.maximumCode, Self.measure(field: index, source))
        }
    }

    private static func measure(field index: Int, _ source: ActivitySource) -> ActivityProgram.Measure {
        let first = index * RunningActivity.slots
        switch (source.measure, source.scope) {
        case (.days, _): return .days
        case (_, .inWindow): return .inWindow(first)
        default: return .total(first)
        }
    }
}
