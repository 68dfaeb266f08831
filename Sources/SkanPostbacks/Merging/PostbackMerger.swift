import SkanSchema

/// The ordered end of the pipeline: the duplicate check, which depends on input order. Batches arrive
/// decoded (`DecodedBatch`); the merge adds their counts, looks up each keyed row's key, counts that row as
/// `ok` or, when its key was seen before, as `duplicate` (writing that status in place of `ok` on its way
/// out), and hands the rows to the sink.
final class PostbackMerger {
    /// The counts of everything merged; nil only while a merge runs.
    private var merged: PostbackSummary?
    var summary: PostbackSummary { merged! }
    /// The `ok` rows per group, when the reader groups them.
    private(set) var tally: PostbackTally?
    /// Made by the first merge, which runs beside decoding, rather than before any work starts.
    private var duplicates: DuplicateKeys?
    private let duplicateCapacity: Int
    private let header: [UInt8]
    private let okCell: Int
    private let duplicateCell: [UInt8]
    /// Whether batches hold rows to write; without, the merge only checks and counts.
    private let writesRows: Bool
    private let sink: (UnsafeBufferPointer<UInt8>) -> Void

    /// `duplicateCapacity`: keys the duplicate index takes before it first grows.
    init(
        catalog: SchemaCatalog, format: PostbackFormat, templates: RowTemplates,
        duplicateCapacity: Int, grouping: PostbackReader.Grouping?, writesRows: Bool,
        sink: @escaping (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        tally = grouping.map { PostbackTally(groupings: $0.groupings, zeroIsNull: $0.zeroIsNull) }
        self.duplicateCapacity = duplicateCapacity
        var writer = PostbackRowWriter(format: format, templates: templates)
        writer.writeHeader()
        header = Array(writer.buffer.bytes)
        okCell = writer.statusCell(.ok).count
        duplicateCell = writer.statusCell(.duplicate)
        merged = PostbackSummary(catalog: catalog)
        self.writesRows = writesRows
        self.sink = sink
    }

    func writeHeader() {
        header.withUnsafeBufferPointer { sink($0) }
    }

    /// Keeps the values of touched slots, so the loads that warm the cache are not optimized away.
    private var touched: UInt64 = 0

    func merge(_ batch: DecodedBatch) {
        // The counts and the index are taken out of the merger while this batch is checked (not copied: the
        // index's set of text keys would be copied on write), so the loop needs no run-time exclusivity
        // checks. The first merge makes the index, with twice as many slots as keys (it stays at most half
        // full).
        var summary = merged.take()!
        var tally = self.tally.take()
        var duplicates = self.duplicates.take() ?? DuplicateKeys(capacity: duplicateCapacity * 2)
        summary.add(takingFrom: &batch.summary)
        let groups = tally == nil ? [] : tally!.add(takingFrom: &batch.tally!)
        let output = batch.rows.bytes
        var written = 0
        let records = batch.keyed
        // Summed in a register while the batch is checked, so the loads do not wait on each other's stores.
        var touchedHere: UInt64 = 0
        for (index, var record) in records.enumerated() {
            if index % 16 == 0 {
                for ahead in records[index..<min(index + 16, records.count)] {
                    if case .uuid(let high, let low) = ahead.key {
                        touchedHere &+= duplicates.touch(high: high, low: low)
                    }
                }
            }
            let seen: Bool
            switch record.key {
            case .none: seen = false
            case .uuid(let high, let low): seen = duplicates.insert(high: high, low: low)
            case .text(let index): seen = duplicates.insert(text: batch.keyTexts[index])
            }
            guard seen else {
                summary.count(record)
                if record.group >= 0 { tally!.count(record, group: groups[Int(record.group)]) }
                continue
            }
            record.status = .duplicate
            summary.count(record)
            guard writesRows else { continue }
            sink(UnsafeBufferPointer(rebasing: output[written..<record.statusOffset]))
            duplicateCell.withUnsafeBufferPointer { sink($0) }
            written = record.statusOffset + okCell
        }
        self.duplicates = consume duplicates
        merged = consume summary
        self.tally = consume tally
        touched &+= touchedHere
        if writesRows { sink(UnsafeBufferPointer(rebasing: output[written...])) }
    }
}
