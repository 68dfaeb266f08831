import SkanCore

extension PostbackRowWriter {
    @inline(__always)
    func appendNull(to out: inout ByteCursor) {
        if format == .jsonl { out.append("null" as StaticString) }
    }

    /// Text the writer itself produces (status, kind): no escaping needed beyond JSON quotes.
    @inline(__always)
    func appendText(_ text: StaticString, to out: inout ByteCursor) {
        appendQuoteIfJSON(to: &out)
        out.append(text)
        appendQuoteIfJSON(to: &out)
    }

    /// Text the writer itself produces, or null when there is none.
    @inline(__always)
    func appendText(_ text: StaticString?, to out: inout ByteCursor) {
        if let text { appendText(text, to: &out) } else { appendNull(to: &out) }
    }

    /// A status code, as text.
    func appendStatus(_ status: PostbackStatus, to out: inout ByteCursor) {
        appendText(status.bytes, to: &out)
    }

    @inline(__always)
    private func appendQuoteIfJSON(to out: inout ByteCursor) {
        if format == .jsonl { out.append(UInt8(ascii: "\"")) }
    }

    /// A small integer the writer computed (source digits, tier), or nothing.
    @inline(__always)
    func appendSmallInteger(_ value: Int?, to out: inout ByteCursor) {
        guard let value else { return appendNull(to: &out) }
        out.append(decimal: value)
    }

    /// A value from the postback. In JSON lines it is copied as written (it is valid JSON already), except
    /// that a string with escapes or non-ASCII bytes is decoded and written again (so that every reader
    /// accepts it), and a column keeps one JSON type in every row: a whole number written otherwise (`111.0`) is written
    /// as that integer, a number that is not an integer every reader holds exactly (`1e400`, `2.5`) is null there
    /// (the status says what is wrong), and with `asText` a number is written as a string. In CSV, a string's text is decoded if it has escapes, quoted when it holds a
    /// comma, quote or line break, and neutralised when a spreadsheet would read it as a formula; numbers
    /// and Booleans are copied.
    mutating func appendCell(
        _ cell: PostbackFields.Value?, line: UnsafeBufferPointer<UInt8>, payload: UnsafeBufferPointer<UInt8>,
        asText: Bool = false, to out: inout ByteCursor
    ) {
        guard let cell else { return appendNull(to: &out) }
        let bytes = cell.source == .line ? line : payload
        let span = cell.span
        if format == .jsonl {
            if span.kind == .string, span.hasEscapes || !isASCII(bytes, span) {
                // Re-encoded, so that invalid UTF-8 and lone surrogate escapes (`\ud800`, which strict
                // readers refuse) reach the output as U+FFFD.
                let text = JSONStringDecoding.decode(bytes, span.start, span.end, scratch: &scratch)
                out.append(JSONString.quoted(text))
                return
            }
            if span.kind == .number, !isSmallInteger(bytes, span) {
                // A whole number written otherwise (`111.0`, `1.11e2`) is that integer, as every check and
                // grouping reads it; a fraction or a number past what every reader holds exactly is null.
                guard case .value(let whole) = JSONInteger.read(bytes, span.start, span.end),
                    whole.magnitude < 1_000_000_000_000_000
                else { return appendNull(to: &out) }
                if asText { out.append(UInt8(ascii: "\"")) }
                out.append(decimal: whole)
                if asText { out.append(UInt8(ascii: "\"")) }
                return
            }
            let quoted = span.kind == .string || (span.kind == .number && asText)
            if quoted { out.append(UInt8(ascii: "\"")) }
            out.append(UnsafeBufferPointer(rebasing: bytes[span.start..<span.end]))
            if quoted { out.append(UInt8(ascii: "\"")) }
            return
        }
        guard span.kind == .string else {
            out.append(UnsafeBufferPointer(rebasing: bytes[span.start..<span.end]))
            return
        }
        if !span.hasEscapes, span.end > span.start, isPlainCSV(bytes, span) {
            out.append(UnsafeBufferPointer(rebasing: bytes[span.start..<span.end]))
            return
        }
        let text = JSONStringDecoding.decode(bytes, span.start, span.end, scratch: &scratch)
        out.append(CSVField.escaped(text))
    }

    /// Digits (with an optional minus) that fit any JSON reader's integers exactly.
    @inline(__always)
    private func isSmallInteger(_ bytes: UnsafeBufferPointer<UInt8>, _ span: JSONScanner.Span) -> Bool {
        var index = span.start
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard span.end - index <= 15 else { return false }
        while index < span.end {
            guard bytes[index].isDigit else { return false }
            index += 1
        }
        return true
    }

    /// ASCII only, with no comma to quote, no DEL to escape and no formula to neutralise (raw JSON strings hold
    /// no quotes, line breaks or other C0 characters). Anything else takes the slow path, which also repairs invalid UTF-8.
    @inline(__always)
    private func isPlainCSV(_ bytes: UnsafeBufferPointer<UInt8>, _ span: JSONScanner.Span) -> Bool {
        let first = bytes[span.start]
        if first == UInt8(ascii: "=") || first == UInt8(ascii: "+") || first == UInt8(ascii: "-")
            || first == UInt8(ascii: "@")
        {
            return false
        }
        return !Self.contains(bytes, span, comma: true)
    }

    @inline(__always)
    private func isASCII(_ bytes: UnsafeBufferPointer<UInt8>, _ span: JSONScanner.Span) -> Bool {
        !Self.contains(bytes, span, comma: false)
    }

    /// Whether the span holds a byte outside ASCII (or, with `comma`, a comma or DEL), eight bytes at a time.
    @inline(__always)
    private static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ span: JSONScanner.Span, comma: Bool) -> Bool {
        var index = span.start
        if let base = bytes.baseAddress {
            while index + 8 <= span.end {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                var flagged = WordBytes.nonASCII(in: word)
                if comma {
                    flagged |= WordBytes.equal(to: UInt8(ascii: ","), in: word) | WordBytes.equal(to: 0x7F, in: word)
                }
                if flagged != 0 { return true }
                index += 8
            }
        }
        while index < span.end {
            if bytes[index] >= 0x80 || (comma && (bytes[index] == UInt8(ascii: ",") || bytes[index] == 0x7F)) {
                return true
            }
            index += 1
        }
        return false
    }
}

/// Decoding the contents of a JSON string (the scanner has validated its escapes).
enum JSONStringDecoding {
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, scratch: inout [UInt8]) -> String
    {
        scratch.removeAll(keepingCapacity: true)
        var index = start
        var pendingHigh: UInt32? = nil
        func appendScalar(_ value: UInt32) {
            let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
            scratch.append(contentsOf: String(Character(scalar)).utf8)
        }
        while index < end {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "\\") else {
                if let high = pendingHigh {
                    appendScalar(high)
                    pendingHigh = nil
                }
                scratch.append(byte)
                index += 1
                continue
            }
            let escape = bytes[index + 1]
            index += 2
            if escape == UInt8(ascii: "u") {
                var value: UInt32 = 0
                for offset in 0..<4 { value = value << 4 | UInt32(bytes[index + offset].hexDigitValue!) }
                index += 4
                if (0xD800...0xDBFF).contains(value) {
                    if let high = pendingHigh { appendScalar(high) }
                    pendingHigh = value
                    continue
                }
                if (0xDC00...0xDFFF).contains(value), let high = pendingHigh {
                    appendScalar(0x10000 + ((high - 0xD800) << 10) + (value - 0xDC00))
                    pendingHigh = nil
                    continue
                }
                if let high = pendingHigh {
                    appendScalar(high)
                    pendingHigh = nil
                }
                appendScalar(value)
                continue
            }
            if let high = pendingHigh {
                appendScalar(high)
                pendingHigh = nil
            }
            switch escape {
            case UInt8(ascii: "b"): scratch.append(0x08)
            case UInt8(ascii: "f"): scratch.append(0x0C)
            case UInt8(ascii: "n"): scratch.append(0x0A)
            case UInt8(ascii: "r"): scratch.append(0x0D)
            case UInt8(ascii: "t"): scratch.append(0x09)
            default: scratch.append(escape)  // \" \\ \/
            }
        }
        if let high = pendingHigh { appendScalar(high) }
        return String(decoding: scratch, as: UTF8.self)
    }
}
