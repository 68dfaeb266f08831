import SkanPostbacks

/// The columns of the outputs the compiler does not write itself: the rows of `skanc postbacks` and the view of
/// `skanc sql`, from `PostbackColumn`. Every schema this command line compiles reserves them, so no field makes
/// a column one of those outputs already has (the compiler adds its own tables' columns).
enum ReservedColumns {
    static let byName: [String: [String]] = Dictionary(
        uniqueKeysWithValues: PostbackColumn.allCases.map { column in
            // The view reads one table of lines: it has every column but the file's.
            (column.name, column == .file ? ["skanc postbacks"] : ["skanc postbacks", "skanc sql"])
        })
}
