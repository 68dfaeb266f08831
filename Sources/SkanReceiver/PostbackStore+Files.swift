import SkanFiles
import SkanPostbacks

/// What the store reads and repairs in its own files: receipt times a crash left unwritten, and the whole lines
/// of a stored range read back. The file operations themselves are SkanFiles' (`DurableFiles`, `OpenFile`).
extension PostbackStore {
    /// Cuts the `.times` file at `path` to `lines` lines, or fills it up to `lines` with its last time (see
    /// `PostbackStore`: a line whose time a crash left unwritten was received in that second). A file with no
    /// whole line is left as it is: there is no time to repeat.
    ///
    /// When no whole time was written at all (a crash between the first batch's data and its times), the lines
    /// are that first batch's, received in the second that names the segment: `opened`.
    static func recoverTimes(_ path: String, lines: Int, opened: Int) throws(Failure) {
        guard lines > 0 else { return }
        var times = (try? DurableFiles.contents(path)) ?? []
        if !times.contains(10) {
            times = Array(ReceiptTimes.line(opened).utf8)
            try DurableFiles.write(times, to: path)
        }
        var count = 0
        var end = 0
        while end < times.count, count < lines {
            if times[end] == 10 { count += 1 }
            end += 1
        }
        if end < times.count { try DurableFiles.replaceTail(of: path, from: end) }
        guard count < lines else { return }
        // A torn last time (no line break) is cut before the whole ones are repeated.
        let whole = times[..<end].lastIndex(of: 10).map { $0 + 1 } ?? 0
        guard whole > 0 else { return }
        let last = times[..<(whole - 1)].lastIndex(of: 10).map { $0 + 1 } ?? 0
        let missing = lines - times[..<whole].count { $0 == 10 }
        let filled = Array(repeatElement(times[last..<whole], count: missing).joined())
        try DurableFiles.replaceTail(of: path, from: whole, with: filled)
    }

    /// The whole lines of a stored range from its start, about `chunkBytes` of them (more when one line is longer),
    /// or nil when the segment cannot be read back (said on standard error, with what the reading was `for`).
    static func wholeLines(of range: StoredRange, about chunkBytes: Int, for purpose: String) -> [UInt8]? {
        let file: OpenFile
        do { file = try OpenFile.openForReading(range.path) } catch {
            StandardError.write(
                "skanc serve: error: cannot read \(range.path) back to \(purpose) it (\(systemReason()))")
            return nil
        }
        var chunk = chunkBytes
        while true {
            let wanted = min(chunk, range.end - range.start)
            guard let bytes = file.read(wanted, at: range.start), !bytes.isEmpty else {
                StandardError.write(
                    "skanc serve: error: cannot read \(range.path) back to \(purpose) it (\(systemReason()))")
                return nil
            }
            // A slice that ends inside a line (not at the range's end) is cut after its last line break, or read
            // again larger when it holds none.
            guard range.start + bytes.count < range.end else { return bytes }
            guard let lineBreak = bytes.lastIndex(of: 10) else {
                chunk *= 2
                continue
            }
            return Array(bytes[...lineBreak])
        }
    }
}
