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
    static let chunkBytes = 1 << 22

    private var decoder: PostbackLineDecoder
    public private(set) var writer: PostbackRowWriter
    public private(set) var summary: PostbackSummary
    private var duplicates = DuplicateKeys()
    private let sink: (UnsafeBufferPointer<UInt8>) -> Void

    public init(schema: Schema, format: PostbackRowWriter.Format, withFileColumn: Bool,
                sink: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
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
        writer.setFile(name)
        let capacity = PostbackReader.chunkBytes + PostbackReader.maximumLineBytes
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        var filled = 0, lineNumber = 0, skippingLongLine = false, firstChunk = true
        while true {
            let count = read(UnsafeMutableBufferPointer(rebasing: buffer[filled..<min(filled + PostbackReader.chunkBytes, capacity)]))
            if count < 0 { drain(); return false }
            let atEnd = count == 0
            var start = 0
            if firstChunk, count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { start = 3 }
            firstChunk = false
            filled += count
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
