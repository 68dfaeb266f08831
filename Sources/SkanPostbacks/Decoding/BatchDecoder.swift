import SkanSchema

/// Decodes the lines of one `LineBatch` into a `DecodedBatch`: finished rows (file, line number and status
/// included) and their counts. Only the duplicate check is left for the ordered merge: the `ok` rows with a
/// key are recorded, with where their status sits, and left for it to count. Every slot has its own decoder,
/// so batches decode in parallel without sharing anything.
final class BatchDecoder {
    /// The decoding state. It is a value, taken out of the object while a batch decodes, so that the hot
    /// loop's accesses are checked for exclusivity when compiling rather than on every access at run time.
    private var state: State?

    init(
        catalog: SchemaCatalog, format: PostbackFormat, templates: RowTemplates,
        maximumLineBytes: Int, verifier: SignatureVerifier?, grouping: PostbackReader.Grouping?, writesRows: Bool,
        senders: (@Sendable (PostbackSender) -> Void)? = nil
    ) {
        state = State(
            decoder: PostbackLineDecoder(
                validFine: templates.validFine, ambiguousFine: templates.ambiguousFine, catalog: catalog,
                verifier: verifier),
            writer: PostbackRowWriter(format: format, templates: templates),
            summary: PostbackSummary(catalog: catalog), maximumLineBytes: maximumLineBytes, writesRows: writesRows)
        state!.senders = senders
        if let grouping {
            state!.tally = BatchTally()
            state!.groupKeys = GroupKeyReader(
                groupings: grouping.groupings, zeroIsNull: grouping.zeroIsNull, catalog: catalog)
        }
    }

    /// Decodes `batch` into `decoded`, which the merge has emptied of the batch before.
    func decode(_ batch: LineBatch, into decoded: DecodedBatch) {
        var state = self.state.take()!
        state.decode(batch, into: decoded)
        self.state = state
    }
}

extension BatchDecoder {
    struct State {
        var decoder: PostbackLineDecoder
        /// Renders the rows into `writer.buffer`, the batch's output.
        var writer: PostbackRowWriter
        var summary: PostbackSummary
        let maximumLineBytes: Int
        /// Whether rows are rendered into `writer.buffer`; without, every status offset is 0.
        let writesRows: Bool
        /// Counts per group, when the reader groups rows; `groupKeys` reads each row's key.
        var tally: BatchTally?
        var groupKeys: GroupKeyReader?
        /// Told who each decoded postback is about (`PostbackReader.Options.senders`).
        var senders: (@Sendable (PostbackSender) -> Void)?
        /// The key of the row being counted, its room reused.
        private var groupKey: [UInt8] = []
        /// The batch's `ok` rows with a duplicate key, and the keys that are not UUIDs.
        private var keyed: [RowRecord] = []
        private var keyTexts: [String] = []
        /// The input whose name the writer's file cell holds.
        private var file = ""

        init(
            decoder: PostbackLineDecoder, writer: PostbackRowWriter, summary: PostbackSummary, maximumLineBytes: Int,
            writesRows: Bool
        ) {
            self.decoder = decoder
            self.writer = writer
            self.summary = summary
            self.maximumLineBytes = maximumLineBytes
            self.writesRows = writesRows
        }

        /// The counts, groups and keyed rows are gathered in the state's own values (no exclusivity checks
        /// at run time in the loop) and then swapped with the decoded batch's, which the merge left empty.
        mutating func decode(_ batch: LineBatch, into decoded: DecodedBatch) {
            decoded.removeAll()
            writer.buffer = decoded.rows
            if batch.file != file {
                file = batch.file
                writer.setFile(file)
            }
            var number = batch.firstLine
            let receipts = batch.receipts
            for _ in 0..<batch.leadingLongLines {
                number += 1
                appendLongLine(number, receivedAt: receipts?[line: number])
            }
            let lines = batch.lines
            var start = 0
            for end in batch.lineEnds {
                number += 1
                if end - start > maximumLineBytes {
                    appendLongLine(number, receivedAt: receipts?[line: number])
                } else {
                    decodeLine(
                        UnsafeBufferPointer(rebasing: lines[start..<end]), number: number,
                        receivedAt: receipts?[line: number])
                }
                start = end + 1
            }
            if batch.endsWithLongLine {
                number += 1
                appendLongLine(number, receivedAt: receipts?[line: number])
            }
            swap(&summary, &decoded.summary)
            swap(&tally, &decoded.tally)
            swap(&keyed, &decoded.keyed)
            swap(&keyTexts, &decoded.keyTexts)
        }

        private mutating func appendLongLine(_ number: Int, receivedAt: Int?) {
            var row = PostbackRow()
            row.status = .lineTooLong
            if decoder.catalog != nil { row.app = -1 }
            let empty = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
            var statusOffset = 0
            if writesRows {
                statusOffset = writer.appendPrefix(line: number, receivedAt: receivedAt, status: row.status)
                writer.appendSuffix(row, line: empty, payload: empty)
            }
            summary.count(RowRecord(row: row, key: .none, statusOffset: statusOffset))
        }

        private mutating func decodeLine(_ rawLine: UnsafeBufferPointer<UInt8>, number: Int, receivedAt: Int?) {
            var end = rawLine.count
            while end > 0, rawLine[end - 1] == 0x0D || rawLine[end - 1] == 0x20 || rawLine[end - 1] == 0x09 { end -= 1 }
            let line = UnsafeBufferPointer(rebasing: rawLine[0..<end])
            guard line.contains(where: { $0 != 0x20 && $0 != 0x09 }) else {
                summary.countBlank()
                return
            }
            let row = decoder.decode(line)
            // A copy of the array reference, so the decoder is not borrowed while the writer is used.
            let payload = decoder.payload
            payload.withUnsafeBufferPointer { payload in
                if let senders, row.framework != nil {
                    senders(PostbackSender(row, line: line, payload: payload, scratch: &writer.scratch))
                }
                var key = RowRecord.Key.none
                if let cell = row.transactionID {
                    let bytes = cell.source == .line ? line : payload
                    if !cell.span.hasEscapes,
                        let (high, low) = DuplicateKeys.uuid(bytes, cell.span.start, cell.span.end)
                    {
                        key = .uuid(high, low)
                    } else {
                        // Decoded, so an identifier written with escapes is the same key as without.
                        let text = JSONStringDecoding.decode(
                            bytes, cell.span.start, cell.span.end, scratch: &writer.scratch)
                        if let (high, low) = Array(text.utf8).withUnsafeBufferPointer({
                            DuplicateKeys.uuid($0, 0, $0.count)
                        }) {
                            key = .uuid(high, low)
                        } else {
                            keyTexts.append(text)
                            key = .text(keyTexts.count - 1)
                        }
                    }
                }
                var statusOffset = 0
                if writesRows {
                    statusOffset = writer.appendPrefix(line: number, receivedAt: receivedAt, status: row.status)
                    writer.appendSuffix(row, line: line, payload: payload)
                }
                var group: Int32 = -1
                if row.status == .ok, groupKeys != nil {
                    groupKeys!.key(
                        row, line: line, payload: payload, receivedAt: receivedAt, scratch: &writer.scratch,
                        into: &groupKey)
                    group = tally!.number(of: groupKey)
                }
                let record = RowRecord(row: row, key: key, statusOffset: statusOffset, group: group)
                // Only a line that passes every check takes its key ("Count only unique postbacks with signatures
                // you verify"): a forged or damaged copy that arrives first never makes the genuine one a duplicate.
                // Such a row is `ok` or `duplicate` by the lines before it: the merge decides, and counts it.
                if row.status == .ok, key.exists {
                    keyed.append(record)
                    return
                }
                summary.count(record)
                if group >= 0 { tally!.count(CountedRow(record, group: group, zeroIsNull: groupKeys!.zeroIsNull)) }
            }
        }
    }
}
