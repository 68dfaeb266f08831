/// The input side: the batcher and the read function, filling one batch at a time, with its lines found
/// and numbered, so that batches can decode in any order.
final class BatchInput {
    private var batcher: LineBatcher
    private let read: (UnsafeMutableBufferPointer<UInt8>) -> Int
    /// The input's name, for the file column, and its receipt times.
    private let file: String
    private let receipts: ReceiptTimes?
    private(set) var failed = false
    /// Lines handed out so far.
    private var lines = 0

    init(
        _ batcher: LineBatcher, file: String, receipts: ReceiptTimes?,
        _ read: @escaping (UnsafeMutableBufferPointer<UInt8>) -> Int
    ) {
        self.batcher = batcher
        self.file = file
        self.receipts = receipts
        self.read = read
    }

    var atEnd: Bool { batcher.atEnd || failed }

    /// Fills the slot's batch with the next lines; false when reading failed (the batch is then not used).
    func fill(_ slot: PostbackReader.Slot) -> Bool {
        guard batcher.fill(slot.batch, read: read) else {
            failed = true
            return false
        }
        slot.batch.file = file
        slot.batch.receipts = receipts
        slot.batch.indexLines(firstLine: lines)
        lines += slot.batch.lineCount
        return true
    }
}
