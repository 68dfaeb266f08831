/// Whether bytes are well-formed UTF-8 (no overlong forms, no surrogates, nothing past U+10FFFF), as every
/// engine that reads a stored line as text requires: one invalid byte makes DuckDB's `read_text` refuse the
/// whole store. The receiver asks for every body on its loop: ASCII (every postback) is passed eight bytes at a
/// time, and only what follows the first byte past ASCII is decoded.
public enum UTF8Validity {
    /// True when `bytes` decode as UTF-8 with no error.
    public static func isValid(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { isValid($0) }
    }

    /// True when `buffer` decodes as UTF-8 with no error.
    public static func isValid(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = buffer.baseAddress else { return true }
        var index = 0
        while index + 8 <= buffer.count,
            UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0
        {
            index += 8
        }
        while index < buffer.count, buffer[index] < 0x80 { index += 1 }
        guard index < buffer.count else { return true }
        // From a byte past ASCII (the start of a sequence: only ASCII comes before it), the standard library's
        // transcoder checks the rest.
        let failed = transcode(
            UnsafeBufferPointer(rebasing: buffer[index...]).makeIterator(), from: UTF8.self, to: UTF32.self,
            stoppingOnError: true, into: { _ in })
        return !failed
    }
}
