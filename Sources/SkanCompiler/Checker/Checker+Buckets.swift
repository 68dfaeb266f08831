import SkanCore
import SkanSchema

extension Checker {
    func bucketRange(of caseSyntax: CaseSyntax) -> BucketRange? {
        guard let range = caseSyntax.range else { return nil }
        return BucketRange(
            lower: range.lower.value, upper: range.upper?.value, isHalfOpen: range.isHalfOpen,
            lowerText: range.lower.text, upperText: range.upper?.text)
    }

    /// `bucket` errors (missing, malformed or overlapping ranges) and `bucket-gap` warnings (values that no
    /// bucket covers between, below or above the buckets). Amounts and counts are never negative.
    mutating func checkBuckets(_ field: FieldSyntax) {
        guard let buckets = field.buckets else {
            for caseSyntax in field.cases {
                if let range = caseSyntax.range {
                    report(.rangeOutsideBuckets(case: caseSyntax.name.text, field: field.name.text, at: range.location))
                }
            }
            return
        }
        let unit = buckets.unit.rawValue
        let errorsBefore = diagnostics.count
        var ranged: [(name: String, range: BucketRangeSyntax)] = []
        var codes: [String: IntegerLiteral] = [:]
        for caseSyntax in field.cases {
            guard let range = caseSyntax.range else {
                report(
                    .bucketWithoutRange(
                        case: caseSyntax.name.text, field: field.name.text, unit: unit, at: caseSyntax.code.location))
                continue
            }
            if buckets.unit == .count, !range.lower.isInteger || range.upper.map({ !$0.isInteger }) == true {
                report(.fractionalCount(field: field.name.text, at: range.location))
                continue
            }
            if let upper = range.upper,
                upper.value < range.lower.value || (range.isHalfOpen && upper.value == range.lower.value)
            {
                report(.emptyBucket(range, case: caseSyntax.name.text, unit: unit))
                continue
            }
            ranged.append((caseSyntax.name.text, range))
            codes[caseSyntax.name.text] = caseSyntax.code
        }
        let sorted = ranged.sorted {
            ($0.range.lower.value, $0.range.location) < ($1.range.lower.value, $1.range.location)
        }
        // Gaps and order are only worth a warning once every case has a well-formed range.
        let wellFormed = diagnostics.count == errorsBefore
        checkBucketNeighbours(sorted, unit: buckets.unit, minorUnit: minorUnit(of: field), reportGaps: wellFormed)
        if wellFormed, diagnostics.count == errorsBefore { checkBucketOrder(sorted, codes: codes, field: field) }
    }

    /// `bucket-order`: codes that do not grow with the ranges. Conditions compare codes (`revenue >= mid`),
    /// so with codes out of order they no longer mean "this amount or more".
    private mutating func checkBucketOrder(
        _ sorted: [(name: String, range: BucketRangeSyntax)], codes: [String: IntegerLiteral], field: FieldSyntax
    ) {
        for (below, above) in zip(sorted, sorted.dropFirst()) {
            guard let low = codes[below.name], let high = codes[above.name], high.value < low.value else { continue }
            report(
                .bucketCodesOutOfOrder(
                    below: below, above: above, codes: (low, high), field: field.name.text,
                    unit: field.buckets?.unit.rawValue ?? "amount"))
            return
        }
    }

    /// Minor units per whole unit of the currency an amount field sums (nil for counts, an app-set field, or a
    /// currency without one): its amounts are whole units, so `...4.99` and `5...` of USD leave none between.
    private func minorUnit(of field: FieldSyntax) -> Double? {
        guard field.buckets?.unit == .amount, let names = field.source?.events, let name = names.first,
            let event = eventNames[name.text]
        else { return nil }
        return events[event.index].unitsPerWhole
    }

    /// Overlaps between neighbours in ascending order, then gaps below, between and above the buckets.
    private mutating func checkBucketNeighbours(
        _ sorted: [(name: String, range: BucketRangeSyntax)], unit: FieldSyntax.BucketUnit, minorUnit: Double?,
        reportGaps: Bool
    ) {
        guard let first = sorted.first, let last = sorted.last else { return }
        if reportGaps, first.range.lower.value > 0 {
            report(.valuesBelowBuckets(unit, lowest: first.range))
        }
        for (below, above) in zip(sorted, sorted.dropFirst()) {
            let (a, b) = (below.range, above.range)
            guard let aUpper = a.upper, aUpper.value < b.lower.value || (aUpper.value == b.lower.value && a.isHalfOpen)
            else {
                let (later, earlier) = a.location < b.location ? (above, below) : (below, above)
                reportBucketOverlap(later: later, earlier: earlier)
                continue
            }
            let touches = BucketRange.reaches(
                upper: aUpper.value, isHalfOpen: a.isHalfOpen, next: b.lower.value, counts: unit == .count,
                unitsPerWhole: minorUnit)
            if reportGaps, !touches {
                let gap =
                    a.isHalfOpen ? "\(aUpper.text)..<\(b.lower.text)" : "between \(aUpper.text) and \(b.lower.text)"
                report(.valuesBetweenBuckets(unit, gap: gap, below: below.name, above: above.name, at: b.location))
            }
        }
        if reportGaps, let upper = last.range.upper {
            report(.valuesAboveBuckets(unit, highest: last.range, upper: upper))
        }
    }

    private mutating func reportBucketOverlap(
        later: (name: String, range: BucketRangeSyntax), earlier: (name: String, range: BucketRangeSyntax)
    ) {
        report(.bucketsOverlap(later: later, earlier: earlier))
    }
}

/// A bucket's range as the schema writes it: `10...`, `0..<1`, `5...9`.
private func describe(_ range: BucketRangeSyntax) -> String {
    guard let upper = range.upper else { return "\(range.lower.text)..." }
    return range.lower.text + (range.isHalfOpen ? "..<" : "...") + upper.text
}

extension Diagnostic {
    fileprivate static func rangeOutsideBuckets(case name: String, field: String, at location: SourceLocation)
        -> Diagnostic
    {
        .error(
            .bucket,
            "case '\(name)' has a range, but '\(field)' is not a buckets field; write 'buckets amount' or 'buckets count' before '{', or remove the range",
            at: location)
    }

    fileprivate static func bucketWithoutRange(
        case name: String, field: String, unit: String, at location: SourceLocation
    ) -> Diagnostic {
        .error(
            .bucket,
            "case '\(name)' of buckets field '\(field)' needs the range of \(unit)s it covers, like '0..<1' or '10...'",
            at: location)
    }

    fileprivate static func fractionalCount(field: String, at location: SourceLocation) -> Diagnostic {
        .error(.bucket, "count buckets take whole numbers; '\(field)' counts events", at: location)
    }

    fileprivate static func emptyBucket(_ range: BucketRangeSyntax, case name: String, unit: String) -> Diagnostic {
        .error(.bucket, "the range \(describe(range)) of case '\(name)' holds no \(unit)", at: range.location)
    }

    fileprivate static func bucketCodesOutOfOrder(
        below: (name: String, range: BucketRangeSyntax), above: (name: String, range: BucketRangeSyntax),
        codes: (low: IntegerLiteral, high: IntegerLiteral), field: String, unit: String
    ) -> Diagnostic {
        .warning(
            .bucketOrder,
            "bucket '\(above.name)' (\(describe(above.range))) has code \(codes.high.value), lower than code \(codes.low.value) of '\(below.name)' (\(describe(below.range))); give higher ranges higher codes",
            at: codes.high.location,
            notes: [
                .init(
                    "conditions compare codes: '\(field) >= \(below.name)' would hold for '\(below.name)' and not for '\(above.name)', whose \(unit)s are higher",
                    at: codes.low.location)
            ])
    }

    fileprivate static func valuesBelowBuckets(
        _ unit: FieldSyntax.BucketUnit, lowest: BucketRangeSyntax
    ) -> Diagnostic {
        .warning(
            .bucketGap,
            "\(unit.rawValue)s below \(lowest.lower.text) fall in no bucket; start the lowest bucket at 0",
            at: lowest.location)
    }

    fileprivate static func valuesBetweenBuckets(
        _ unit: FieldSyntax.BucketUnit, gap: String, below: String, above: String, at location: SourceLocation
    ) -> Diagnostic {
        .warning(
            .bucketGap, "\(unit.rawValue)s \(gap) fall in no bucket; make '\(below)' end where '\(above)' begins",
            at: location)
    }

    fileprivate static func valuesAboveBuckets(
        _ unit: FieldSyntax.BucketUnit, highest: BucketRangeSyntax, upper: NumberLiteral
    ) -> Diagnostic {
        .warning(
            .bucketGap,
            "\(unit.rawValue)s above \(upper.text) fall in no bucket; make the highest bucket open-ended ('\(highest.lower.text)...')",
            at: highest.location)
    }

    fileprivate static func bucketsOverlap(
        later: (name: String, range: BucketRangeSyntax), earlier: (name: String, range: BucketRangeSyntax)
    ) -> Diagnostic {
        .error(
            .bucket,
            "the bucket \(describe(later.range)) of '\(later.name)' overlaps \(describe(earlier.range)) of '\(earlier.name)'; each value must fall in one bucket",
            at: later.range.location, notes: [.init("'\(earlier.name)' is here", at: earlier.range.location)])
    }
}
