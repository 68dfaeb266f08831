// libFuzzer target: any text as a CSV cell (between two others) reads back through a strict RFC 4180 reader
// as exactly one cell holding the text, or the text after the `'` that neutralises a formula; no cell starts
// with a scalar a spreadsheet would evaluate. Built by Fuzz/run.sh with the SkanCompiler sources and
// Tests/Shared/StrictCSV.swift.

/// libFuzzer's entry point: one input per call; a crash, leak or failed check is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSV(_ data: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: data, count: count), as: UTF8.self)
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
    guard cell == text || cell == "'" + text else { fatalError("the cell does not read back") }
    if let first = cell.unicodeScalars.first, "=+@\t\r".unicodeScalars.contains(first) {
        fatalError("a formula left as it is")
    }
    return 0
}
