/// "Did you mean" for misspelled names: the closest candidate by edit distance, when it is close enough to
/// be a likely typo (at most a third of the name's length, and at least one edit).
enum NameSuggestion {
    /// Suggestions are looked for among at most this many names.
    static let maximumCandidates = 64

    static func closest(to name: String, among candidates: some Sequence<String>) -> String? {
        guard name.count <= 256 else { return nil }
        let limit = max(1, name.count / 3)
        var best: (name: String, distance: Int)? = nil
        for candidate in candidates {
            let distance = editDistance(name, candidate)
            if distance <= limit, distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.name
    }

    /// Edit distance (insertions, deletions, substitutions and swaps of neighbours, as in 'tpo' for 'top')
    /// over Unicode scalars; a wrong capital costs half an edit, so it ranks above a wrong letter.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars)
        let b = Array(b.unicodeScalars)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        // Costs are doubled so that half an edit stays an integer.
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i * 2 }
        for j in 0...b.count { table[0][j] = j * 2 }
        for i in 1...a.count {
            for j in 1...b.count {
                let substitution =
                    a[i - 1] == b[j - 1]
                    ? 0
                    : a[i - 1].properties.lowercaseMapping == b[j - 1].properties.lowercaseMapping ? 1 : 2
                var cost = min(table[i - 1][j] + 2, table[i][j - 1] + 2, table[i - 1][j - 1] + substitution)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    cost = min(cost, table[i - 2][j - 2] + 2)
                }
                table[i][j] = cost
            }
        }
        return (table[a.count][b.count] + 1) / 2
    }
}
