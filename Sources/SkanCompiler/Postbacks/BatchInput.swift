/// The input side: the batcher and the read function, filling one set of slots at a time, with the lines
/// of each batch found and numbered, so that batches can decode in any order.
final class BatchInput {
    private var batcher: LineBatcher
    private let read: (UnsafeMutableBufferPointer<UInt8>) -> Int
    private(set) var failed = false
    private var filled: [PostbackReader.Slot] = []
    /// Lines handed out so far.
    private var lines = 0

    init(_ batcher: LineBatcher, _ read: @escaping (UnsafeMutableBufferPointer<UInt8>) -> Int) {
        self.batcher = batcher
        self.read = read
    }

    var atEnd: Bool { batcher.atEnd || failed }

    /// Fills the slots in order until the input ends.
    func fill(_ slots: [PostbackReader.Slot]) {
        for slot in slots where !atEnd {
            guard batcher.fill(slot.batch, read: read) else {
                failed = true
                break
            }
            slot.batch.indexLines(firstLine: lines)
            lines += slot.batch.lineCount
            filled.append(slot)
        }
    }

    /// The slots filled since the last call, in input order.
    func take() -> [PostbackReader.Slot] {
        defer { filled = [] }
        return filled
    }
}
