#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A run of whole input lines, and what decoding them produced: rendered row cells and one record per
/// non-blank line. Batches are filled in input order by `LineBatcher`, decoded in parallel, merged in order.
final class LineBatch {
    private(set) var buffer: UnsafeMutableBufferPointer<UInt8>
    /// Bytes of whole lines at the start of `buffer`.
    var count = 0
    /// A line longer than the limit stood before this batch's first line (it was skipped while reading).
    var startsWithLongLine = false
    /// The input ended inside a line longer than the limit, after this batch's lines.
    var endsWithLongLine = false

    // What decoding produced.
    var records: [RowRecord] = []
    var keyTexts: [String] = []
    var blankLines = 0
    var lineCount = 0

    init(capacity: Int) {
        buffer = .allocate(capacity: capacity)
    }

    deinit {
        buffer.deallocate()
    }

    var lines: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: buffer[0..<count]) }

    func reset() {
        count = 0
        startsWithLongLine = false
        endsWithLongLine = false
        records.removeAll(keepingCapacity: true)
        keyTexts.removeAll(keepingCapacity: true)
        blankLines = 0
        lineCount = 0
    }

    /// Makes room for `capacity` bytes, keeping the first `count`.
    func reserve(_ capacity: Int) {
        guard capacity > buffer.count else { return }
        let larger = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: capacity)
        _ = larger.initialize(from: buffer[0..<count])
        buffer.deallocate()
        buffer = larger
    }
}

/// Cuts the input into batches of whole lines: a chunk is read, the batch ends at its last newline, and
/// the unfinished line is carried into the next batch. A line that grows past the limit is skipped without
/// being held in memory and reported as too long. A UTF-8 byte-order mark at the very start is dropped.
struct LineBatcher {
    let chunkBytes: Int
    let maximumLineBytes: Int
    private var carry: [UInt8] = []
    private var skipping = false
    private var checkByteOrderMark = true
    private(set) var atEnd = false

    init(chunkBytes: Int, maximumLineBytes: Int) {
        self.chunkBytes = chunkBytes
        self.maximumLineBytes = maximumLineBytes
    }

    /// Fills `batch` with the next whole lines (possibly none). Returns false when reading failed.
    mutating func fill(_ batch: LineBatch, read: (UnsafeMutableBufferPointer<UInt8>) -> Int) -> Bool {
        batch.reset()
        batch.reserve(carry.count + chunkBytes)
        _ = UnsafeMutableBufferPointer(rebasing: batch.buffer[0..<carry.count]).initialize(from: carry)
        batch.count = carry.count
        carry.removeAll(keepingCapacity: true)
        let read = read(UnsafeMutableBufferPointer(rebasing: batch.buffer[batch.count..<(batch.count + chunkBytes)]))
        guard read >= 0 else { return false }
        if read == 0 {
            atEnd = true
            if skipping {
                skipping = false
                batch.endsWithLongLine = true
            }
            return true
        }
        var start = batch.count
        batch.count += read
        let base = batch.buffer.baseAddress!
        if skipping {
            guard let newline = memchr(base + start, 0x0A, batch.count - start) else {
                batch.count = 0
                return true
            }
            let after = base.distance(to: newline.assumingMemoryBound(to: UInt8.self)) + 1
            base.update(from: base + after, count: batch.count - after)
            batch.count -= after
            start = 0
            skipping = false
            batch.startsWithLongLine = true
        }
        if checkByteOrderMark {
            if batch.count >= 3 || memchr(base, 0x0A, batch.count) != nil {
                checkByteOrderMark = false
                if batch.count >= 3, base[0] == 0xEF, base[1] == 0xBB, base[2] == 0xBF {
                    base.update(from: base + 3, count: batch.count - 3)
                    batch.count -= 3
                }
            }
        }
        // End the batch at its last newline; the rest is the start of the next batch.
        var end = batch.count
        while end > 0, base[end - 1] != 0x0A { end -= 1 }
        carry.append(contentsOf: UnsafeBufferPointer(start: base + end, count: batch.count - end))
        batch.count = end
        if carry.count > maximumLineBytes {
            carry.removeAll(keepingCapacity: true)
            skipping = true
        }
        return true
    }
}
