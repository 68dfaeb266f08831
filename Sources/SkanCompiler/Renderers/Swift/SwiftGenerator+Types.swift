import SkanCore
import SkanSchema

extension SwiftGenerator {
    /// A field's cases as an `Int`-backed enum, ordered by code as conditions compare them; a buckets field
    /// also gets an initializer from its unit.
    func renderFieldType(_ field: Field, _ out: inout CodeWriter) {
        out.doc(field.description ?? "The cases of `\(field.name)`.")
        out.block(
            "\(access)nonisolated enum \(fieldTypeName(field)): Swift.Int, Swift.CaseIterable, Swift.Comparable, Swift.Hashable, Swift.Sendable {"
        ) { out in
            for fieldCase in field.cases {
                out.doc(fieldCase.description)
                if let bucket = fieldCase.bucket { out.line("/// Covers `\(bucket)`.") }
                out.line("case \(caseName(fieldCase, of: field)) = \(fieldCase.code)")
            }
            out.line()
            out.line("/// Cases compare by code, the order the schema's conditions use.")
            out.block("\(access)static func < (lhs: Self, rhs: Self) -> Swift.Bool {") { out in
                out.line("lhs.rawValue < rhs.rawValue")
            }
            if case .buckets(let unit) = field.kind {
                out.line()
                renderBucketInitializer(field, unit: unit, &out)
            }
        }
    }

    /// Scans buckets from the highest lower bound down, which is `Field.nearestBucketCase(for:)`.
    private func renderBucketInitializer(_ field: Field, unit: Field.BucketUnit, _ out: inout CodeWriter) {
        let parameter = unit == .amount ? "amount" : "count"
        let type = unit == .amount ? "Swift.Double" : "Swift.Int"
        let byLowerBound = field.cases.filter { $0.bucket != nil }.sorted { $0.bucket!.lower > $1.bucket!.lower }
        guard let lowest = byLowerBound.last else { return }
        out.line(
            "/// The bucket that holds `\(parameter)`. A value that no bucket covers falls into the nearest bucket")
        out.line("/// below it, and a value below every bucket\(unit == .amount ? " (or NaN)" : "") into the lowest.")
        out.block("\(access)init(\(parameter): \(type)) {") { out in
            for fieldCase in byLowerBound.dropLast() {
                out.line(
                    "if \(parameter) >= \(fieldCase.bucket!.lowerText) { self = .\(caseName(fieldCase, of: field)); return }"
                )
            }
            out.line("self = .\(caseName(lowest, of: field))")
        }
    }

    func renderCoarseType(_ out: inout CodeWriter) {
        out.line("/// A coarse conversion value; the schema decides what each means.")
        out.block(
            "\(access)nonisolated enum CoarseValue: Swift.String, Swift.CaseIterable, Swift.Hashable, Swift.Sendable {"
        ) { out in
            out.line("case low, medium, high")
        }
    }

    /// The conversion windows as a type: a number or postback index that names no window gives nil.
    func renderWindowType(_ out: inout CodeWriter) {
        out.line(
            "/// A conversion window, counted from first launch: the first ends at hour 48, the second at hour 168,")
        out.line("/// the third at hour 840.")
        out.block(
            "\(access)nonisolated enum Window: Swift.Int, Swift.CaseIterable, Swift.Comparable, Swift.Hashable, Swift.Sendable {"
        ) { out in
            out.line("case first = 1, second = 2, third = 3")
            out.line()
            out.line("/// The window numbered 1, 2 or 3; nil for any other number.")
            out.block("\(access)init?(number: Swift.Int) {") { out in
                out.line("self.init(rawValue: number)")
            }
            out.line()
            out.line(
                "/// The window a postback with this `postback-sequence-index` (0, 1 or 2) reports on; nil for any other."
            )
            out.block("\(access)init?(postbackSequenceIndex: Swift.Int) {") { out in
                out.line("guard (0...2).contains(postbackSequenceIndex) else { return nil }")
                out.line("self.init(rawValue: postbackSequenceIndex + 1)")
            }
            out.line()
            out.line("/// 1, 2 or 3.")
            out.line("\(access)var number: Swift.Int { rawValue }")
            out.line()
            out.line("/// The index of the postback this window sends: 0, 1 or 2.")
            out.line("\(access)var postbackSequenceIndex: Swift.Int { rawValue - 1 }")
            out.line()
            out.block("\(access)static func < (lhs: Self, rhs: Self) -> Swift.Bool {") { out in
                out.line("lhs.rawValue < rhs.rawValue")
            }
        }
    }

    func renderErrorType(_ out: inout CodeWriter) {
        out.line("/// Why a fine value is not a state of this schema version.")
        out.block(
            "\(access)nonisolated enum FineValueError: Swift.Error, Swift.Hashable, Swift.Sendable, Swift.CustomStringConvertible {"
        ) { out in
            out.line("/// Fine values are 0...63.")
            out.line("case outOfRange(Swift.Int)")
            out.line("/// A reserved bit is set: the value belongs to another version of the layout.")
            out.line("case reservedBitSet(bit: Swift.Int)")
            if hasMarker {
                out.line("/// A bit this version sets in every value is clear: the value belongs to another version.")
                out.line("case reservedBitClear(bit: Swift.Int)")
            }
            out.line("/// A bit that no flag or field owns is set.")
            out.line("case unusedBitSet(bit: Swift.Int)")
            out.line("/// A field's bits hold a code that is none of its cases.")
            out.line("case undefinedCode(field: Swift.String, code: Swift.Int)")
            out.line()
            out.block("\(access)var description: Swift.String {") { out in
                out.line("switch self {")
                out.line(
                    "case .outOfRange(let value): return \"\\(value) is not a fine value: fine values are 0...63\"")
                out.line("case .reservedBitSet(let bit): return \"bit \\(bit) is reserved\"")
                if hasMarker {
                    out.line(
                        "case .reservedBitClear(let bit): return \"bit \\(bit) is clear, but this version sets it in every value\""
                    )
                }
                out.line(
                    "case .unusedBitSet(let bit): return \"bit \\(bit) belongs to no flag or field of this schema\"")
                out.line("case .undefinedCode(let field, let code): return \"code \\(code) is no case of \\(field)\"")
                out.line("}")
            }
        }
    }

    /// Whether reserved bits mark this version (`reserved bit 5 = 1`), which needs one more error case.
    var hasMarker: Bool { schema.reservedBits.contains { $0.code != 0 } }
}
