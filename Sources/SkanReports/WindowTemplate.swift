import SkanCore

extension PostbackReport.Window {
    /// The counts as the JSON report writes them: postbacks, contributed, re-engagements, installs, with a fine
    /// value, with a coarse value, without a value, the tiers, each field's cases, the coarse values
    /// (`PostbackReport.json(_:counts:)` names them).
    var countsInOrder: [Int] {
        [postbacks, contributed, reengagements, installs, withFineValue, withCoarseValue, withoutValue] + tiers
            + caseCounts + coarse
    }
}

extension PostbackReport {
    /// Every window of a report has the same members (the tiers, the schema's fields and cases, the coarse
    /// values); only the counts differ. So a window is rendered once, with a mark for each count, at the depth
    /// windows sit at, and cut into the text between counts; each window is then that text with its numbers.
    /// Most of a report of thousands of campaigns is windows: written this way, they make no tree of values.
    struct WindowTemplate {
        /// The text before each count, and after the last.
        private var pieces: [[UInt8]] = []
        /// The bytes of a window without its numbers: found once, since every window reserves it.
        private(set) var size = 0
        /// The depth windows are written at: groups, a group, its windows.
        static let indent = 8

        /// The template of windows like `window`; nil makes an empty one (a report without groups).
        init(_ window: Window?) {
            guard let window else { return }
            // A byte no JSON text holds: control characters in strings are written escaped.
            let mark = UInt8(0)
            let marks = window.countsInOrder.map { _ in JSONValue.decimal(String(UnicodeScalar(mark))) }
            var iterator = marks.makeIterator()
            var text: [UInt8] = []
            PostbackReport.json(window, counts: &iterator).render(into: &text, indent: Self.indent)
            pieces = text.split(separator: mark, omittingEmptySubsequences: false).map(Array.init)
            precondition(pieces.count == marks.count + 1, "a window's counts and its JSON members disagree")
            size = pieces.reduce(0) { $0 + $1.count }
        }

        /// `window` as JSON, written at `indent` as the report's tree would.
        func json(_ window: Window) -> JSONValue {
            let counts = window.countsInOrder
            precondition(counts.count + 1 == pieces.count, "every window has the same members")
            var text = pieces[0]
            text.reserveCapacity(size + 4 * counts.count)
            for (count, piece) in zip(counts, pieces.dropFirst()) {
                text.appendDecimal(count)
                text.append(contentsOf: piece)
            }
            return .rendered(text)
        }
    }
}
