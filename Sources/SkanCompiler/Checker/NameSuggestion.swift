/// "Did you mean" for misspelled names: the closest candidate by edit distance, when it is close enough to
/// be a likely typo (at most a third of the name's length, and at least one edit).
enum NameSuggestion {
    static func closest(to name: String, among candidates: some Sequence<String>) -> String? {
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

    /// Levenshtein distance over Unicode scalars, comparing case-insensitively at half cost so that a wrong
    /// capital ranks above a wrong letter.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous = Array(0...b.count).map { $0 * 2 }
        var row = previous
        for i in 1...a.count {
            row[0] = i * 2
            for j in 1...b.count {
                let substitution: Int
                if a[i - 1] == b[j - 1] {
                    substitution = 0
                } else if a[i - 1].properties.lowercaseMapping == b[j - 1].properties.lowercaseMapping {
                    substitution = 1
                } else {
                    substitution = 2
                }
                row[j] = min(previous[j] + 2, row[j - 1] + 2, previous[j - 1] + substitution)
            }
            swap(&previous, &row)
        }
        return (previous[b.count] + 1) / 2
    }
}
