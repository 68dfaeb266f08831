#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Decodes the lines of one batch into finished rows (line number and status included) and counts them.
/// Only the duplicate check is left for the ordered merge: rows with a key are recorded with where their
/// status sits. Every worker has its own decoder, so batches decode in parallel without sharing anything.
final class BatchDecoder {
    private var decoder: PostbackLineDecoder
    /// Renders the rows into `writer.buffer`, the batch's output.
    private(set) var writer: PostbackRowWriter
    /// The counts of the batch last decoded.
    var summary: PostbackSummary
    let maximumLineBytes: Int

    init(schema: Schema, format: PostbackRowWriter.Format, withFileColumn: Bool, templates: RowTemplates, maximumLineBytes: Int) {
        decoder = PostbackLineDecoder(validFine: templates.validFine)
        writer = PostbackRowWriter(format: format, withFile: withFileColumn, templates: templates)
        summary = PostbackSummary(schema: schema)
        self.maximumLineBytes = maximumLineBytes
    }

    var output: ByteBuffer { writer.buffer }

    /// The file name for the rows that follow.
    func setFile(_ name: String) {
        writer.setFile(name)
    }

    func decode(_ batch: LineBatch) {
        writer.buffer.removeAll()
        var number = batch.firstLine
        for _ in 0..<batch.leadingLongLines {
            number += 1
            appendLongLine(number)
        }
        let lines = batch.lines
        var start = 0
        for end in batch.lineEnds {
            number += 1
            if end - start > maximumLineBytes {
                appendLongLine(number)
            } else {
                decodeLine(UnsafeBufferPointer(rebasing: lines[start..<end]), number: number, into: batch)
            }
            start = end + 1
        }
        if batch.endsWithLongLine {
            number += 1
            appendLongLine(number)
        }
    }

    private func appendLongLine(_ number: Int) {
        var row = PostbackRow()
        row.status = .lineTooLong
        let empty = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        let statusOffset = writer.appendPrefix(line: number, status: row.status)
        writer.appendSuffix(row, line: empty, payload: empty)
        summary.count(RowRecord(row: row, key: .none, statusOffset: statusOffset))
    }

    private func decodeLine(_ rawLine: UnsafeBufferPointer<UInt8>, number: Int, into batch: LineBatch) {
        var end = rawLine.count
        while end > 0, rawLine[end - 1] == 0x0D || rawLine[end - 1] == 0x20 || rawLine[end - 1] == 0x09 { end -= 1 }
        let line = UnsafeBufferPointer(rebasing: rawLine[0..<end])
        guard line.contains(where: { $0 != 0x20 && $0 != 0x09 }) else {
            summary.countBlank()
            return
        }
        let row = decoder.decode(line)
        decoder.payload.withUnsafeBufferPointer { payload in
            var key = RowRecord.Key.none
            if let cell = row.transactionID {
                let bytes = cell.source == .line ? line : payload
                if !cell.span.hasEscapes, let (high, low) = DuplicateKeys.uuid(bytes, cell.span.start, cell.span.end) {
                    key = .uuid(high, low)
                } else {
                    batch.keyTexts.append(JSONStringDecoding.decode(bytes, cell.span.start, cell.span.end, scratch: &writer.scratch))
                    key = .text(batch.keyTexts.count - 1)
                }
            }
            let statusOffset = writer.appendPrefix(line: number, status: row.status)
            writer.appendSuffix(row, line: line, payload: payload)
            let record = RowRecord(row: row, key: key, statusOffset: statusOffset)
            summary.count(record)
            if case .none = key {} else { batch.keyedRecords.append(record) }
        }
    }
}
