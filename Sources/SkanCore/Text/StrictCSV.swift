/// An RFC 4180 reader that refuses what the RFC does not allow: a quote inside an unquoted field, text after a
/// closing quote, an unterminated quoted field, a bare CR. Works on UTF-8 bytes, as spreadsheet importers split
/// rows. The tests and the `csv` fuzz target read back every cell skanc writes with it.
public enum StrictCSV {
    /// Text that is not RFC 4180 CSV: why, and at which byte.
    public struct Malformed: Error, Equatable {
        /// What is wrong.
        public var reason: String
        /// The byte offset where it is.
        public var offset: Int
    }

    /// The records of `text`, each a list of fields; records end with CRLF or LF (a last one may end the text).
    public static func records(_ text: String) throws(Malformed) -> [[String]] {
        let bytes = Array(text.utf8)
        var records: [[String]] = []
        var record: [String] = []
        var field: [UInt8] = []
        var index = 0
        var quoted = false
        var fieldStarted = false
        func endField() {
            record.append(String(decoding: field, as: UTF8.self))
            field = []
            fieldStarted = false
        }
        while index < bytes.count {
            let byte = bytes[index]
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index += 2
                        continue
                    }
                    quoted = false
                    index += 1
                    // After a closing quote: a comma, a line end or the end of the text.
                    if index < bytes.count, ![UInt8(ascii: ","), 13, 10].contains(bytes[index]) {
                        throw Malformed(reason: "text after a closing quote", offset: index)
                    }
                    continue
                }
                field.append(byte)
                index += 1
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                guard !fieldStarted, field.isEmpty else {
                    throw Malformed(reason: "a quote inside an unquoted field", offset: index)
                }
                quoted = true
                fieldStarted = true
            case UInt8(ascii: ","):
                endField()
            case 13:
                guard index + 1 < bytes.count, bytes[index + 1] == 10 else {
                    throw Malformed(reason: "a carriage return outside quotes", offset: index)
                }
                index += 1
                endField()
                records.append(record)
                record = []
            case 10:
                endField()
                records.append(record)
                record = []
            default:
                field.append(byte)
                fieldStarted = true
            }
            index += 1
        }
        if quoted { throw Malformed(reason: "an unterminated quoted field", offset: index) }
        if fieldStarted || !field.isEmpty || !record.isEmpty {
            endField()
            records.append(record)
        }
        return records
    }
}
