/// What decoding one `LineBatch` produced, handed from the worker that decoded it to the ordered merge: the
/// rendered rows, the counts of every row whose status is final, and the `ok` rows with a duplicate key,
/// whose status only the merge can decide (it depends on every line before them, in input order). Those
/// rows are counted once, by the merge, with the status it gives them.
final class DecodedBatch {
    /// The batch's rows as they are written out; a keyed row's status cell says `ok` until the merge
    /// writes `duplicate` in its place.
    var rows = ByteBuffer(capacity: 1 << 16)
    /// The counts of the rows that are not in `keyed`.
    var summary: PostbackSummary
    /// The groups of the rows that are not in `keyed`, when the reader groups rows (the keyed rows' group
    /// numbers are in it too).
    var tally: BatchTally?
    /// The `ok` rows with a duplicate key, in input order.
    var keyed: [RowRecord] = []
    /// The keys of `keyed` that are not UUIDs (`RowRecord.Key.text` indexes them).
    var keyTexts: [String] = []

    init(summary: PostbackSummary, grouped: Bool) {
        self.summary = summary
        tally = grouped ? BatchTally() : nil
    }

    /// Empties the batch for the next decode, keeping its room.
    func removeAll() {
        rows.removeAll()
        keyed.removeAll(keepingCapacity: true)
        keyTexts.removeAll(keepingCapacity: true)
        tally?.removeAll()
    }
}
