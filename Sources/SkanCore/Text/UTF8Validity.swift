/// Whether bytes are well-formed UTF-8 (no overlong forms, no surrogates, nothing past U+10FFFF), as every
/// engine that reads a stored line as text requires: one invalid byte makes DuckDB's `read_text` refuse the
/// whole store.
public enum UTF8Validity {
    /// True when `bytes` decode as UTF-8 with no error.
    public static func isValid<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        // ASCII needs no decoding; the standard library's transcoder checks the rest.
        guard bytes.contains(where: { $0 >= 0x80 }) else { return true }
        let failed = transcode(
            bytes.makeIterator(), from: UTF8.self, to: UTF32.self, stoppingOnError: true, into: { _ in })
        return !failed
    }
}
