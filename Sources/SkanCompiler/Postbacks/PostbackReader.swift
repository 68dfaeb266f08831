#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Streams JSON-lines postbacks through decoding, checks and the row writer in bounded memory: input is
/// read in chunks, each line is decoded in place, rows are drained to the sink as the buffer fills. Only the
/// duplicate index grows with the input. I/O stays with the caller: it hands in a read function and a sink.
public struct PostbackReader {
    /// Lines longer than this get the status `line-too-long` and are skipped without being held in memory.
    public static let maximumLineBytes = 1 << 20

    /// How much is read at a time; the buffer holds one chunk plus the unfinished line before it.
    private let chunkBytes: Int

    private var decoder: PostbackLineDecoder
    public private(set) var writer: PostbackRowWriter
    public private(set) var summary: PostbackSummary
    private var duplicates = DuplicateKeys()
    private let sink: (UnsafeBufferPointer<UInt8>) -> Void

    public init(schema: Schema, format: PostbackRowWriter.Format, withFileColumn: Bool, chunkBytes: Int = 1 << 22,
                sink: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
        self.chunkBytes = max(1, chunkBytes)
        decoder = PostbackLineDecoder(schema: schema)
        writer = PostbackRowWriter(schema: schema, format: format, withFile: withFileColumn)
        summary = PostbackSummary(schema: schema)
        self.sink = sink
    }

    public mutating func writeHeader() {
        writer.writeHeader()
    }

    /// Reads one input to its end. `read` fills the buffer it is given and returns the byte count, 0 at
    /// the end, or a negative number on failure (then this returns false after the lines read so far).
    public mutating func read(name: String, using read: (UnsafeMutableBufferPointer<UInt8>) -> Int) -> Bool {
        let chunkBytes = self.chunkBytes
        writer.setFile(name)
        // Starts at two chunks and grows, up to a chunk plus the longest line, only when a line needs it.
        var buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 2 * chunkBytes)
        defer { buffer.deallocate() }
        var filled = 0, lineNumber = 0, skippingLongLine = false, checkByteOrderMark = true
        while true {
            if filled + chunkBytes > buffer.count {
                let larger = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(2 * buffer.count, filled + chunkBytes))
                _ = larger.initialize(from: buffer[0..<filled])
                buffer.deallocate()
                buffer = larger
            }
            let count = read(UnsafeMutableBufferPointer(rebasing: buffer[filled..<(filled + chunkBytes)]))
            if count < 0 { drain(); return false }
            let atEnd = count == 0
            filled += count
            // A UTF-8 byte-order mark before the first line is not part of it.
            if checkByteOrderMark, filled >= 3 || atEnd {
                checkByteOrderMark = false
                if filled >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF {
                    buffer.baseAddress!.update(from: buffer.baseAddress! + 3, count: filled - 3)
                    filled -= 3
                }
            }
            if checkByteOrderMark { continue }
            var start = 0
            // Every complete line in the buffer.
            var index = start
            while let newline = firstNewline(buffer, from: index, to: filled) {
                lineNumber += 1
                if skippingLongLine || newline - start > PostbackReader.maximumLineBytes {
                    skippingLongLine = false
                    emitLongLine(number: lineNumber)
                } else {
                    process(UnsafeBufferPointer(rebasing: buffer[start..<newline]), number: lineNumber)
                }
                start = newline + 1
                index = start
            }
            if atEnd {
                if skippingLongLine || filled - start > PostbackReader.maximumLineBytes {
                    emitLongLine(number: lineNumber + 1)
                } else if start < filled {
                    process(UnsafeBufferPointer(rebasing: buffer[start..<filled]), number: lineNumber + 1)
                }
                drain()
                return true
            }
            // Keep the unfinished line; past the limit, drop it and remember to report it.
            let rest = filled - start
            if skippingLongLine || rest > PostbackReader.maximumLineBytes {
                skippingLongLine = true
                filled = 0
            } else {
                if start > 0, rest > 0 { buffer.baseAddress!.update(from: buffer.baseAddress! + start, count: rest) }
                filled = rest
            }
        }
    }

    /// Writes what is buffered to the sink.
    public mutating func drain() {
        writer.buffer.withUnsafeBufferPointer { sink($0) }
        writer.buffer.removeAll(keepingCapacity: true)
    }

    private func firstNewline(_ buffer: UnsafeMutableBufferPointer<UInt8>, from: Int, to: Int) -> Int? {
        guard from < to else { return nil }
        guard let found = memchr(buffer.baseAddress! + from, 0x0A, to - from) else { return nil }
        return buffer.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    private mutating func emitLongLine(number: Int) {
        var row = PostbackRow()
        row.status = .lineTooLong
        summary.count(row)
        writer.write(row, line: number, bytes: UnsafeBufferPointer(start: nil, count: 0), payload: UnsafeBufferPointer(start: nil, count: 0))
    }

    private mutating func process(_ rawLine: UnsafeBufferPointer<UInt8>, number: Int) {
        var end = rawLine.count
        while end > 0, rawLine[end - 1] == 0x0D || rawLine[end - 1] == 0x20 || rawLine[end - 1] == 0x09 { end -= 1 }
        let line = UnsafeBufferPointer(rebasing: rawLine[0..<end])
        guard line.contains(where: { $0 != 0x20 && $0 != 0x09 }) else {
            summary.countBlank()
            return
        }
        var row = decoder.decode(line)
        if let key = row.transactionID {
            let seen = decoder.payload.withUnsafeBufferPointer { payload in
                duplicates.insert(key.source == .line ? line : payload, key.span.start, key.span.end, hasEscapes: key.span.hasEscapes)
            }
            if seen { row.flag(.duplicate) }
        }
        summary.count(row)
        decoder.payload.withUnsafeBufferPointer { payload in
            writer.write(row, line: number, bytes: line, payload: payload)
        }
        if writer.buffer.count >= 1 << 20 { drain() }
    }
}
