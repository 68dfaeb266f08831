// libFuzzer target: any text as a CSV cell (between two others) reads back through a strict RFC 4180 reader
// as exactly one cell holding the text (its control characters but tab and line breaks written as `\u{1B}`), or
// that after the `'` that neutralises a formula; no cell starts with a scalar a spreadsheet would evaluate, and
// none holds a control character but tab and line breaks. Reads back with SkanCore's StrictCSV.
import FuzzSupport

@testable import SkanCore

/// One input; a crash, leak or failed check is a finding.
func fuzzCSV(_ input: UnsafeRawBufferPointer) -> Int32 {
    let count = input.count
    let text = String(decoding: input, as: UTF8.self)
    let escaped = CSVField.escaped(text)
    let records: [[String]]
    do {
        records = try StrictCSV.records("a," + escaped + ",z\r\n")
    } catch {
        fatalError("a cell a strict reader refuses: \(error)")
    }
    guard records.count == 1, records[0].count == 3, records[0][0] == "a", records[0][2] == "z" else {
        fatalError("a cell split the row: \(records)")
    }
    let cell = records[0][1]
    let visible = ControlCharacters.escaped(text, keeping: ["\t", "\r", "\n"])
    guard cell == visible || cell == "'" + visible else { fatalError("the cell does not read back") }
    if cell.unicodeScalars.contains(where: { ControlCharacters.isControl($0) && !["\t", "\r", "\n"].contains($0) }) {
        fatalError("a control character written raw")
    }
    if let first = cell.unicodeScalars.first, "=+@\t\r".unicodeScalars.contains(first) {
        fatalError("a formula left as it is")
    }
    return 0
}

runLibFuzzer { data, count in fuzzCSV(fuzzInput(data, count)) }
