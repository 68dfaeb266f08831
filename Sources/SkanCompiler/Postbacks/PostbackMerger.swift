/// The ordered end of the pipeline: the duplicate check (which depends on input order), the summary, and
/// the output rows with their line numbers and final statuses.
final class PostbackMerger {
    private(set) var writer: PostbackRowWriter
    private(set) var summary: PostbackSummary
    private var duplicates = DuplicateKeys()
    private var lineBase = 0
    private let sink: (UnsafeBufferPointer<UInt8>) -> Void

    init(schema: Schema, format: PostbackRowWriter.Format, withFileColumn: Bool, templates: RowTemplates,
         sink: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
        writer = PostbackRowWriter(format: format, withFile: withFileColumn, templates: templates)
        summary = PostbackSummary(schema: schema)
        self.sink = sink
    }

    func writeHeader() {
        writer.writeHeader()
    }

    func startFile(_ name: String) {
        writer.setFile(name)
        lineBase = 0
    }

    /// Keeps the values of touched slots, so the loads that warm the cache are not optimized away.
    private var touched: UInt64 = 0

    func merge(_ batch: LineBatch, output: ByteBuffer) {
        let cells = output.bytes
        var start = 0
        let records = batch.records
        for (index, var record) in records.enumerated() {
            if index % 16 == 0 {
                for ahead in records[index..<min(index + 16, records.count)] {
                    if case .uuid(let high, let low) = ahead.key { touched &+= duplicates.touch(high: high, low: low) }
                }
            }
            let seen: Bool
            switch record.key {
            case .none: seen = false
            case .uuid(let high, let low): seen = duplicates.insert(high: high, low: low)
            case .text(let index): seen = duplicates.insert(text: batch.keyTexts[index])
            }
            if seen, record.status == .ok { record.status = .duplicate }
            summary.count(record)
            writer.appendPrefix(line: lineBase + record.line, status: record.status)
            writer.buffer.append(UnsafeBufferPointer(rebasing: cells[start..<record.suffixEnd]))
            start = record.suffixEnd
            if writer.buffer.count >= 1 << 20 { drain() }
        }
        summary.countBlank(batch.blankLines)
        lineBase += batch.lineCount
    }

    func drain() {
        sink(writer.buffer.bytes)
        writer.buffer.removeAll()
    }
}
