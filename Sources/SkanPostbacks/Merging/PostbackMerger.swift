import SkanCompiler

/// The ordered end of the pipeline: the duplicate check, which depends on input order. Batches arrive
/// decoded into finished rows; the merge looks up each row's key, rewrites the status of an `ok` row whose
/// key was seen before, adds the batch's counts to the summary, and hands the rows to the sink.
final class PostbackMerger {
    private(set) var summary: PostbackSummary
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
        versions: LiveVersions, format: PostbackFormat, withFileColumn: Bool, templates: RowTemplates,
        duplicateCapacity: Int, grouping: PostbackReader.Grouping?, writesRows: Bool,
        sink: @escaping (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        tally = grouping.map { PostbackTally(groupings: $0.groupings, zeroIsNull: $0.zeroIsNull) }
        self.duplicateCapacity = duplicateCapacity
        var writer = PostbackRowWriter(format: format, withFile: withFileColumn, templates: templates)
        writer.writeHeader()
        header = Array(writer.buffer.bytes)
        okCell = writer.statusCell(.ok).count
        duplicateCell = writer.statusCell(.duplicate)
        summary = PostbackSummary(versions: versions)
        self.writesRows = writesRows
        self.sink = sink
    }

    func writeHeader() {
        header.withUnsafeBufferPointer { sink($0) }
    }

    /// Keeps the values of touched slots, so the loads that warm the cache are not optimized away.
    private var touched: UInt64 = 0

    func merge(_ batch: LineBatch, decoder: BatchDecoder) {
        decoder.addCounts(to: &summary)
        let groups = tally == nil ? [] : decoder.addGroups(to: &tally!)
        let output = decoder.output.bytes
        var written = 0
        let records = batch.keyedRecords
        // The index is taken out of the merger while this batch is checked (not copied: its set of text
        // keys would be copied on write), so the loop needs no run-time exclusivity checks. The first
        // merge makes it, with twice as many slots as keys (it stays at most half full).
        var duplicates = self.duplicates.take() ?? DuplicateKeys(capacity: duplicateCapacity * 2)
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
            guard seen, record.status == .ok else { continue }
            summary.count(record, times: -1)
            if record.group >= 0 { tally!.count(record, group: groups[Int(record.group)], times: -1) }
            record.status = .duplicate
            summary.count(record)
            guard writesRows else { continue }
            sink(UnsafeBufferPointer(rebasing: output[written..<record.statusOffset]))
            duplicateCell.withUnsafeBufferPointer { sink($0) }
            written = record.statusOffset + okCell
        }
        self.duplicates = consume duplicates
        touched &+= touchedHere
        if writesRows { sink(UnsafeBufferPointer(rebasing: output[written...])) }
    }
}
