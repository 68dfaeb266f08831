/// A unified diff of two texts by lines, as `diff -u` prints it (three lines of context), for golden-file
/// mismatches. Lines are matched by a longest common subsequence, which is fine for files of a few
/// thousand lines.
public enum UnifiedDiff {
    /// `diff -u` of `old` and `new`, headed by their names; empty hunks when the texts are equal.
    public static func diff(_ old: String, _ new: String, oldName: String, newName: String, context: Int = 3) -> String
    {
        let a = lines(old)
        let b = lines(new)
        let edits = script(a, b)
        var out = "--- \(oldName)\n+++ \(newName)\n"
        var index = 0
        while index < edits.count {
            guard edits[index].kind != .same else {
                index += 1
                continue
            }
            // A hunk: from `context` lines before this change to `context` after the last change that lies
            // within 2 * context lines of the one before it.
            let start = max(0, index - context)
            var end = index
            var last = index
            while end < edits.count {
                if edits[end].kind != .same { last = end }
                if end - last > 2 * context { break }
                end += 1
            }
            end = min(edits.count, last + context + 1)
            let hunk = edits[start..<end]
            let oldCount = hunk.filter { $0.kind != .inserted }.count
            let newCount = hunk.filter { $0.kind != .deleted }.count
            let oldStart =
                (hunk.first { $0.kind != .inserted }?.oldLine ?? edits[start].oldLine) + (oldCount == 0 ? 0 : 1)
            let newStart =
                (hunk.first { $0.kind != .deleted }?.newLine ?? edits[start].newLine) + (newCount == 0 ? 0 : 1)
            out += "@@ -\(range(oldStart, oldCount)) +\(range(newStart, newCount)) @@\n"
            for edit in hunk {
                switch edit.kind {
                case .same: out += " " + a[edit.oldLine] + "\n"
                case .deleted: out += "-" + a[edit.oldLine] + "\n"
                case .inserted: out += "+" + b[edit.newLine] + "\n"
                }
            }
            index = end
        }
        return out
    }

    private static func range(_ start: Int, _ count: Int) -> String {
        count == 1 ? "\(start)" : "\(start),\(count)"
    }

    /// A text's lines, without their line ends; a final line end adds no empty line.
    private static func lines(_ text: String) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    struct Edit {
        enum Kind { case same, deleted, inserted }
        var kind: Kind
        /// The line this edit is at in each text (for insertions, the old line it comes before; and so on).
        var oldLine: Int
        var newLine: Int
    }

    /// The edits that turn `a` into `b`, deletions before insertions within a change.
    static func script(_ a: [String], _ b: [String]) -> [Edit] {
        // lengths[i][j]: the longest common subsequence of a[i...] and b[j...].
        var lengths = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                lengths[i][j] = a[i] == b[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
            }
        }
        var edits: [Edit] = []
        var (i, j) = (0, 0)
        while i < a.count || j < b.count {
            if i < a.count, j < b.count, a[i] == b[j] {
                edits.append(Edit(kind: .same, oldLine: i, newLine: j))
                i += 1
                j += 1
            } else if i < a.count, j == b.count || lengths[i + 1][j] >= lengths[i][j + 1] {
                edits.append(Edit(kind: .deleted, oldLine: i, newLine: j))
                i += 1
            } else {
                edits.append(Edit(kind: .inserted, oldLine: i, newLine: j))
                j += 1
            }
        }
        return edits
    }
}
