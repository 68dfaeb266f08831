public import SkanCore

/// The schema compiler's codes, each explained with an example in docs/LanguageReference.md.
extension DiagnosticCode {
    /// The text does not follow the grammar.
    public static let syntax = DiagnosticCode("syntax")
    /// A bit index outside 0...5, or a range written high...low.
    public static let bitRange = DiagnosticCode("bit-range")
    /// A window outside 1...3, or a window range written high...low.
    public static let windowRange = DiagnosticCode("window-range")
    /// Two declarations share a bit.
    public static let overlap = DiagnosticCode("overlap")
    /// A case code does not fit the field's bits.
    public static let caseWidth = DiagnosticCode("case-width")
    /// Two declarations, cases, codes, coarse blocks or lock rules with the same name or window.
    public static let duplicate = DiagnosticCode("duplicate")
    /// A condition names a flag, field or case that does not exist.
    public static let unknownName = DiagnosticCode("unknown-name")
    /// A flag compared with a case, or a field used as a bare condition.
    public static let type = DiagnosticCode("type")
    /// A valid state reaches no coarse rule in some window.
    public static let coarseGap = DiagnosticCode("coarse-gap")
    /// A coarse rule that no state can reach.
    public static let unreachable = DiagnosticCode("unreachable")
    /// A coarse block whose event and time terms combine in more ways than the coverage check can search.
    public static let coverageLimit = DiagnosticCode("coverage-limit")
    /// Bucket ranges that overlap, are malformed, or a buckets field whose cases lack ranges.
    public static let bucket = DiagnosticCode("bucket")
    /// Amounts or counts that no bucket covers.
    public static let bucketGap = DiagnosticCode("bucket-gap")
    /// Bucket codes that do not grow with their ranges, so comparisons of codes do not follow the amounts.
    public static let bucketOrder = DiagnosticCode("bucket-order")
    /// An ordering comparison (`<`, `>=`) on a field whose case codes are not in the order the cases are written.
    public static let caseOrder = DiagnosticCode("case-order")
    /// Bits that belong to no declaration and are not reserved.
    public static let unusedBits = DiagnosticCode("unused-bits")
    /// A name that clashes with a member the generated code needs.
    public static let name = DiagnosticCode("name")
    /// An input larger or deeper than the compiler accepts.
    public static let limit = DiagnosticCode("limit")
    /// `.sum` or `buckets amount` on an event logged without a value, or amounts of several currencies summed.
    public static let eventValue = DiagnosticCode("event-value")
    /// A value event's currency that ISO 4217 does not list: its amounts are summed as logged.
    public static let currency = DiagnosticCode("currency")
    /// A derived field whose cases do not all have `when` and end with `otherwise`, or a derived condition that
    /// reads a field declared after it (or itself).
    public static let derivation = DiagnosticCode("derivation")
    /// A time no conversion window reaches (`within 900 hours`, `lock window 1 after 50 hours`, `hours >= 900`).
    public static let unreachableTime = DiagnosticCode("unreachable-time")
    /// A `count of` field whose bits saturate below counts the windows reach.
    public static let countSaturates = DiagnosticCode("count-saturates")
    /// `check --against`: values change meaning, but the version stayed the same.
    public static let versionUnchanged = DiagnosticCode("version-unchanged")
    /// `check --against`: the version is below the old schema's.
    public static let versionDecreased = DiagnosticCode("version-decreased")
    /// `check --against`: the version went up, but no value changes meaning.
    public static let versionBumpUnneeded = DiagnosticCode("version-bump-unneeded")
    /// `check --live-together`: versions live at the same time share valid fine values, or a version number.
    public static let versionOverlap = DiagnosticCode("version-overlap")

    /// Every code the compiler raises, in the order docs/LanguageReference.md explains them.
    public static let schemaCodes: [DiagnosticCode] = [
        .syntax,
        .bitRange,
        .windowRange,
        .overlap,
        .caseWidth,
        .duplicate,
        .unknownName,
        .type,
        .coarseGap,
        .unreachable,
        .bucket,
        .bucketGap,
        .bucketOrder,
        .caseOrder,
        .eventValue,
        .currency,
        .derivation,
        .unreachableTime,
        .countSaturates,
        .unusedBits,
        .name,
        .limit,
        .versionUnchanged,
        .versionDecreased,
        .versionBumpUnneeded,
        .versionOverlap,
    ]
}
