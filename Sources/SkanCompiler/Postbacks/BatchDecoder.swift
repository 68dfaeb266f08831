#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Decodes the lines of one batch: each non-blank line becomes a `RowRecord` and its rendered cells from
/// `kind` on. Every worker has its own, so batches decode in parallel without sharing anything.
final class BatchDecoder {
    private var decoder: PostbackLineDecoder
    /// Renders the cells after the status into `writer.buffer`, the batch's output.
    private(set) var writer: PostbackRowWriter
    let maximumLineBytes: Int

    init(format: PostbackRowWriter.Format, withFileColumn: Bool, templates: RowTemplates, maximumLineBytes: Int) {
        decoder = PostbackLineDecoder(validFine: templates.validFine)
        writer = PostbackRowWriter(format: format, withFile: withFileColumn, templates: templates)
        self.maximumLineBytes = maximumLineBytes
    }

    var output: ByteBuffer { writer.buffer }

    func decode(_ batch: LineBatch) {
        writer.buffer.removeAll()
        var number = 0
        for _ in 0..<batch.leadingLongLines {
            number += 1
            appendLongLine(number, to: batch)
        }
        let lines = batch.lines
        var start = 0
        while start < lines.count {
            var end = start
            if let found = memchr(lines.baseAddress! + start, 0x0A, lines.count - start) {
                end = lines.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
            } else {
                end = lines.count
            }
            number += 1
            if end - start > maximumLineBytes {
                appendLongLine(number, to: batch)
            } else {
                decodeLine(UnsafeBufferPointer(rebasing: lines[start..<end]), number: number, into: batch)
            }
            start = end + 1
        }
        if batch.endsWithLongLine {
            number += 1
            appendLongLine(number, to: batch)
        }
        batch.lineCount = number
    }

    private func appendLongLine(_ number: Int, to batch: LineBatch) {
        var row = PostbackRow()
        row.status = .lineTooLong
        let empty = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        writer.appendSuffix(row, line: empty, payload: empty)
        batch.records.append(RowRecord(line: number, row: row, key: .none, suffixEnd: writer.buffer.count))
    }

    private func decodeLine(_ rawLine: UnsafeBufferPointer<UInt8>, number: Int, into batch: LineBatch) {
        var end = rawLine.count
        while end > 0, rawLine[end - 1] == 0x0D || rawLine[end - 1] == 0x20 || rawLine[end - 1] == 0x09 { end -= 1 }
        let line = UnsafeBufferPointer(rebasing: rawLine[0..<end])
        guard line.contains(where: { $0 != 0x20 && $0 != 0x09 }) else {
            batch.blankLines += 1
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
            writer.appendSuffix(row, line: line, payload: payload)
            batch.records.append(RowRecord(line: number, row: row, key: key, suffixEnd: writer.buffer.count))
        }
    }
}
