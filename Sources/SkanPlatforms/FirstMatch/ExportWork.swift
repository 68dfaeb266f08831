/// The work one export may do, counted in the conjunctions it builds and compares: conditions can multiply into
/// alternatives without end (ten-term `or`s in four flags, a coarse block and a lock over them, or thousands of
/// events), so every step that builds or compares conjunctions spends from one budget, and past it each step
/// stops at once and the export is refused as too large (`export-limit`, located where the budget ran out). No
/// schema makes an export slow or large; tests count the work instead of timing it.
final class ExportWork {
    /// Conjunctions an export may build and compare: a few tenths of a second, and a few megabytes.
    static let limit = 200_000

    /// What was spent so far.
    private(set) var spent = 0
    let limit: Int

    init(limit: Int = ExportWork.limit) {
        self.limit = limit
    }

    /// Whether the budget is spent: every step stops.
    var isExhausted: Bool { spent > limit }

    /// Spends `steps`; false once the budget is spent.
    func spend(_ steps: Int = 1) -> Bool {
        guard !isExhausted else { return false }
        spent += steps
        return spent <= limit
    }
}
