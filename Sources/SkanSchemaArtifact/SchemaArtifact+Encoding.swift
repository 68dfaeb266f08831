import SkanCore
import SkanSchema

/// The model as canonical JSON: every member named for what it is, indices into `fields` and `events` where the
/// model refers to them, and every number the model keeps as a double as decimal text.
extension SchemaArtifact {
    static func encode(_ schema: Schema) -> CanonicalJSON {
        .object([
            "name": .string(schema.name), "version": .integer(schema.version),
            "fields": .array(schema.fields.map(encode)),
            "reserved": .array(
                schema.reservedBits.map { reserved in
                    .object([
                        "bits": bits(reserved.bits), "description": .optional(reserved.description),
                        "code": .integer(reserved.code),
                    ])
                }),
            "unused_bits": .array(schema.unusedBits.map(CanonicalJSON.integer)),
            "coarse": .array(
                schema.coarseRulesByWindow.values.map { rules in
                    .array(
                        rules.map { rule in
                            .object([
                                "value": .optional(rule.value?.rawValue), "when": encode(rule.condition),
                                "text": .string(rule.text),
                            ])
                        })
                }),
            "locks": .array(schema.lockByWindow.values.map { $0.map(encode) ?? .null }),
            "events": .array(
                schema.events.map { .object(["name": .string($0.name), "currency": .optional($0.currency)]) }),
        ])
    }

    private static func bits(_ range: BitRange) -> CanonicalJSON {
        .array([.integer(range.lower), .integer(range.upper)])
    }

    private static func encode(_ field: Field) -> CanonicalJSON {
        let kind: String
        switch field.kind {
        case .flag: kind = "flag"
        case .cases: kind = "cases"
        case .buckets(let unit): kind = unit.rawValue
        }
        return .object([
            "name": .string(field.name), "kind": .string(kind), "bits": bits(field.bits),
            "description": .optional(field.description),
            "cases": .array(
                field.cases.map { item in
                    .object([
                        "name": .string(item.name), "code": .integer(item.code),
                        "description": .optional(item.description), "bucket": item.bucket.map(encode) ?? .null,
                    ])
                }),
            "derivation": field.derivation.map(encode) ?? .null,
        ])
    }

    private static func encode(_ bucket: BucketRange) -> CanonicalJSON {
        .object([
            "lower": .decimal(bucket.lower), "lower_text": .string(bucket.lowerText),
            "upper": bucket.upper.map(CanonicalJSON.decimal) ?? .null, "upper_text": .optional(bucket.upperText),
            "half_open": .bool(bucket.isHalfOpen),
        ])
    }

    private static func encode(_ derivation: FieldDerivation) -> CanonicalJSON {
        switch derivation {
        case .flag(let condition): .object(["derive": .string("flag"), "when": encode(condition)])
        case .firstMatch(let conditions):
            .object(["derive": .string("first_match"), "when": .array(conditions.map(encode))])
        case .buckets(let source): .object(["derive": .string("buckets"), "source": encode(source)])
        case .count(let source): .object(["derive": .string("count"), "source": encode(source)])
        }
    }

    private static func encode(_ source: ActivitySource) -> CanonicalJSON {
        var members: [String: CanonicalJSON] = [
            "measure": .string(source.measure.rawValue), "events": .array(source.events.map(CanonicalJSON.integer)),
        ]
        switch source.scope {
        case .sinceFirstLaunch: members["scope"] = .string("first_launch")
        case .inWindow: members["scope"] = .string("window")
        case .within(let hours):
            members["scope"] = .string("within")
            members["hours"] = .decimal(hours)
        }
        return .object(members)
    }

    static func encode(_ condition: Condition) -> CanonicalJSON {
        switch condition {
        case .always: .object(["op": .string("always")])
        case .flag(let field): .object(["op": .string("flag"), "field": .integer(field)])
        case .comparison(let field, let comparison, let code):
            .object([
                "op": .string("compare"), "field": .integer(field), "cmp": .string(comparison.rawValue),
                "code": .integer(code),
            ])
        case .event(let event): .object(["op": .string("event"), "event": .integer(event)])
        case .eventMeasure(let event, let measure, let comparison, let number):
            .object([
                "op": .string("event_" + measure.rawValue), "event": .integer(event),
                "cmp": .string(comparison.rawValue), "value": .decimal(number),
            ])
        case .hours(let comparison, let number):
            .object(["op": .string("hours"), "cmp": .string(comparison.rawValue), "value": .decimal(number)])
        case .not(let inner): .object(["op": .string("not"), "of": encode(inner)])
        case .all(let parts): .object(["op": .string("all"), "of": .array(parts.map(encode))])
        case .any(let parts): .object(["op": .string("any"), "of": .array(parts.map(encode))])
        }
    }
}
