// libFuzzer target: any bytes as a `.times` file beside a segment. Every line gets a time or none, never a
// wrong one: a time is exactly the line's 1 to 12 digits (a carriage return at its end allowed) up to
// `ReceiptTimes.latest`; the warnings name only lines that have no time, inside the file, and say when the
// count differs from the segment's.
import FuzzSupport
import SkanPostbacks

/// One input; a crash, leak or failed check is a finding.
func fuzzTimes(_ input: UnsafeRawBufferPointer) -> Int32 {
    let bytes = Array(input)
    let times = ReceiptTimes(bytes)
    var lines = bytes.split(separator: 10, omittingEmptySubsequences: false)
    if bytes.isEmpty || bytes.last == 10 { lines.removeLast() }
    guard times.seconds.count == lines.count else {
        fatalError("\(lines.count) lines read as \(times.seconds.count) times")
    }
    for (line, seconds) in zip(lines, times.seconds) {
        let text = String(decoding: line.last == 13 ? line.dropLast() : line, as: UTF8.self)
        let expected = text.utf8.count <= 12 && text.utf8.allSatisfy { (0x30...0x39).contains($0) } ? Int(text) : nil
        guard seconds == expected.flatMap({ $0 <= ReceiptTimes.latest ? $0 : nil }) else {
            fatalError("'\(text)' read as \(String(describing: seconds))")
        }
    }
    // A segment as long as the times, and one line longer: the warnings stay inside the file.
    for segmentLines in [lines.count, lines.count + 1] {
        for diagnostic in times.diagnostics(lines: segmentLines) {
            guard diagnostic.severity == .warning, !diagnostic.message.isEmpty else {
                fatalError("not a warning with a message: \(diagnostic)")
            }
            if let location = diagnostic.location {
                guard location.line >= 1, location.line <= lines.count, times.seconds[location.line - 1] == nil else {
                    fatalError("a warning at line \(location.line), which has a time or is not in the file")
                }
            }
        }
        let silent = times.seconds.allSatisfy { $0 != nil } && times.seconds.count == segmentLines
        guard silent == times.diagnostics(lines: segmentLines).isEmpty else {
            fatalError("warnings that do not match the times")
        }
    }
    return 0
}

runLibFuzzer { data, count in fuzzTimes(fuzzInput(data, count)) }
