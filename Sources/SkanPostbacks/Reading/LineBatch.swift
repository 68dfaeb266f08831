#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A run of whole input lines and where they came from. Batches are filled in input order by `LineBatcher`,
/// decoded in parallel (each into its slot's `DecodedBatch`), merged in order.
final class LineBatch {
    private(set) var buffer: UnsafeMutableBufferPointer<UInt8>
    /// Bytes of whole lines at the start of `buffer`.
    var count = 0
    /// Where each line in `buffer` ends (the offset of its newline, or `count` for a last line without one).
    var lineEnds: [Int] = []
    /// Lines of the same input before this batch, so rows carry their line numbers as soon as they decode.
    var firstLine = 0
    /// Lines longer than the limit that stood before this batch's first line (skipped while reading).
    var leadingLongLines = 0
    /// The input ended inside a line longer than the limit, after this batch's lines.
    var endsWithLongLine = false
    /// The name of the input the lines came from: the rows' file column.
    var file = ""
    /// When the input's lines were received, when it has its receipt times.
    var receipts: ReceiptTimes?

    init(capacity: Int) {
        buffer = .allocate(capacity: capacity)
    }

    deinit {
        buffer.deallocate()
    }

    var lines: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: buffer[0..<count]) }

    func reset() {
        count = 0
        leadingLongLines = 0
        endsWithLongLine = false
        firstLine = 0
    }

    /// Lines in this batch, long ones skipped while reading included.
    var lineCount: Int { leadingLongLines + lineEnds.count + (endsWithLongLine ? 1 : 0) }

    /// Finds where each line ends, and numbers the lines from `firstLine`.
    func indexLines(firstLine: Int) {
        self.firstLine = firstLine
        var ends = lineEnds
        lineEnds = []
        ends.removeAll(keepingCapacity: true)
        let lines = self.lines
        guard let base = lines.baseAddress else { return }
        var start = 0
        while start < lines.count {
            if let newline = memchr(base + start, 0x0A, lines.count - start) {
                start = base.distance(to: newline.assumingMemoryBound(to: UInt8.self))
            } else {
                start = lines.count
            }
            ends.append(start)
            start += 1
        }
        lineEnds = ends
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

    /// Fills `batch` with the next whole lines (possibly none). Reads until the batch holds a newline, so a
    /// long line is read into the batch once rather than carried over and over. Returns false when reading
    /// failed.
    mutating func fill(_ batch: LineBatch, read: (UnsafeMutableBufferPointer<UInt8>) -> Int) -> Bool {
        batch.reset()
        batch.reserve(carry.count + chunkBytes)
        _ = UnsafeMutableBufferPointer(rebasing: batch.buffer[0..<carry.count]).initialize(from: carry)
        batch.count = carry.count
        carry.removeAll(keepingCapacity: true)
        while true {
            batch.reserve(batch.count + chunkBytes)
            let read = read(
                UnsafeMutableBufferPointer(rebasing: batch.buffer[batch.count..<(batch.count + chunkBytes)]))
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
                // Only bytes of the skipped line are in the batch (from `start`): drop them up to its end.
                guard let newline = memchr(base + start, 0x0A, batch.count - start) else {
                    batch.count = start
                    continue
                }
                let after = base.distance(to: newline.assumingMemoryBound(to: UInt8.self)) + 1
                (base + start).update(from: base + after, count: batch.count - after)
                batch.count -= after - start
                skipping = false
                batch.leadingLongLines += 1
            }
            if checkByteOrderMark, batch.count >= 3 || memchr(base, 0x0A, batch.count) != nil {
                checkByteOrderMark = false
                if batch.count >= 3, base[0] == 0xEF, base[1] == 0xBB, base[2] == 0xBF {
                    base.update(from: base + 3, count: batch.count - 3)
                    batch.count -= 3
                    start = max(0, start - 3)
                }
            }
            // End the batch at its last newline; the rest starts the next batch. Only the bytes just read
            // can hold one: what came before (the carried line, earlier reads of this fill) holds none.
            var end = batch.count
            while end > start, base[end - 1] != 0x0A { end -= 1 }
            if end > start {
                let rest = batch.count - end
                if rest > maximumLineBytes {
                    skipping = true
                } else {
                    carry.append(contentsOf: UnsafeBufferPointer(start: base + end, count: rest))
                }
                batch.count = end
                return true
            }
            // No newline yet: keep reading into this batch, unless the line is already too long.
            if batch.count > maximumLineBytes {
                batch.count = 0
                skipping = true
            }
        }
    }
}
