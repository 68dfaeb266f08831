// The least a decoder of a JSON-lines file does, on one thread: read the file in 1 MiB chunks, find each line's
// end, look at every byte of the line for the bytes JSON's structure turns on (quotes, backslashes, control
// bytes) eight at a time, as skanc's string scanner does, and copy each line out as a row would be. skanc does all
// of this and much more (every member read and checked, the payload decoded, the row rendered, the duplicate
// index); this measures what the floor costs on this machine, so the goal "within 3x of reading the file" is
// argued from a figure. Usage: scan-floor FILE [ROUNDS]; prints the best round.
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Bytes that are 0x80 in each byte where `word`'s byte equals `byte`.
@inline(__always)
func matches(_ word: UInt64, _ byte: UInt8) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let x = word ^ (ones &* UInt64(byte))
    return (x &- ones) & ~x & (ones &* 0x80)
}

/// Bytes that are 0x80 in each byte of `word` below 0x20 (or 0x80 and up, which a string scan also stops at).
@inline(__always)
func controls(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    return (word &- ones &* 0x20) & ~word & (ones &* 0x80) | word & (ones &* 0x80)
}

struct Counts {
    var lines = 0
    var structural = 0
    var copied = 0
}

func scan(_ path: String, into counts: inout Counts) -> Bool {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    let chunk = 1 << 20
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunk + 8, alignment: 8)
    let row = UnsafeMutableRawPointer.allocate(byteCount: chunk + 8, alignment: 8)
    defer {
        buffer.deallocate()
        row.deallocate()
    }
    var kept = 0
    while true {
        let count = read(descriptor, buffer + kept, chunk - kept)
        if count <= 0 { break }
        let end = kept + count
        var start = 0
        var position = 0
        // Eight bytes a step; the line's last partial word is read past the line, never past the buffer.
        while position < end {
            let word = (buffer + position).loadUnaligned(as: UInt64.self)
            // One test for the common word, with none of them (a newline is a control byte too).
            let structural = matches(word, 0x22) | matches(word, 0x5C) | controls(word)
            if structural == 0 {
                position += 8
                continue
            }
            counts.structural &+= structural.nonzeroBitCount
            let newline = matches(word, 0x0A)
            if newline != 0 {
                let lineEnd = position + newline.trailingZeroBitCount / 8
                if lineEnd >= end { break }
                (row).copyMemory(from: buffer + start, byteCount: lineEnd - start)
                counts.copied &+= lineEnd - start
                counts.lines += 1
                start = lineEnd + 1
                position = start
            } else {
                position += 8
            }
        }
        // The part of a line the chunk cut off moves to the front.
        kept = end - start
        if kept == chunk { kept = 0 }
        (buffer).copyMemory(from: buffer + start, byteCount: kept)
    }
    if kept > 0 { counts.lines += 1 }
    return true
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    print("usage: scan-floor FILE [ROUNDS]")
    exit(64)
}
let rounds = arguments.count > 2 ? Int(arguments[2]) ?? 3 : 3
var best = Double.infinity
var counts = Counts()
for _ in 0..<rounds {
    counts = Counts()
    var start = timespec()
    var finish = timespec()
    clock_gettime(CLOCK_MONOTONIC, &start)
    guard scan(arguments[1], into: &counts) else {
        print("scan-floor: cannot read \(arguments[1])")
        exit(1)
    }
    clock_gettime(CLOCK_MONOTONIC, &finish)
    let seconds = Double(finish.tv_sec - start.tv_sec) + Double(finish.tv_nsec - start.tv_nsec) / 1e9
    best = min(best, seconds)
}
let nanoseconds = best * 1e9 / Double(max(counts.lines, 1))
print(
    "scan-floor: \(counts.lines) lines, \(counts.copied) bytes copied, \(counts.structural) structural bytes; "
        + "best of \(rounds): \(best) s, \(nanoseconds) ns a line, one thread")
