/// The stable codes printed in brackets after each message. Never rename one: scripts and docs match on them.
/// Each is explained with an example in docs/LanguageReference.md.
public enum DiagnosticCode: String, Sendable, CaseIterable {
    /// The text does not follow the grammar.
    case syntax
    /// A bit index outside 0...5, or a range written high...low.
    case bitRange = "bit-range"
    /// A window outside 1...3, or a window range written high...low.
    case windowRange = "window-range"
    /// Two declarations share a bit.
    case overlap
    /// A case code does not fit the field's bits.
    case caseWidth = "case-width"
    /// Two declarations, cases, codes, coarse blocks or lock rules with the same name or window.
    case duplicate
    /// A condition names a flag, field or case that does not exist.
    case unknownName = "unknown-name"
    /// A flag compared with a case, or a field used as a bare condition.
    case type
    /// A valid state reaches no coarse rule in some window.
    case coarseGap = "coarse-gap"
    /// A coarse rule that no state can reach.
    case unreachable
    /// Bucket ranges that overlap, are malformed, or a buckets field whose cases lack ranges.
    case bucket
    /// Amounts or counts that no bucket covers.
    case bucketGap = "bucket-gap"
    /// Bucket codes that do not grow with their ranges, so comparisons of codes do not follow the amounts.
    case bucketOrder = "bucket-order"
    /// An ordering comparison (`<`, `>=`) on a field whose case codes are not in the order the cases are written.
    case caseOrder = "case-order"
    /// Bits that belong to no declaration and are not reserved.
    case unusedBits = "unused-bits"
    /// A name that clashes with a member the generated code needs.
    case name
    /// An input larger or deeper than the compiler accepts.
    case limit
    /// `check --against`: values change meaning, but the version stayed the same.
    case versionUnchanged = "version-unchanged"
    /// `check --against`: the version is below the old schema's.
    case versionDecreased = "version-decreased"
    /// `check --against`: the version went up, but no value changes meaning.
    case versionBumpUnneeded = "version-bump-unneeded"
    /// `check --live-together`: versions live at the same time share valid fine values, or a version number.
    case versionOverlap = "version-overlap"
}
