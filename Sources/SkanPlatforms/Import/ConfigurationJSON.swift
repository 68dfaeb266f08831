import SkanCore

/// The JSON text of a platform's configuration, as every import reads it: a UTF-8 byte order mark at the start
/// (what Windows editors save) is no part of it, and text that is not JSON is an error at the line and column
/// where reading stopped, so the user can go there.
enum ConfigurationJSON {
    /// `keepsRepeatedKeys`: every member of a key given twice stays, for a reader that refuses them.
    static func document(_ bytes: [UInt8], tooDeep: String, keepsRepeatedKeys: Bool = false)
        throws(ConfigurationReadError) -> JSONDocument
    {
        let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        let skipped = bytes.starts(with: mark) ? mark.count : 0
        var reader = JSONReader(
            bytes: Array(bytes.dropFirst(skipped)), maximumDepth: 16, tooDeep: tooDeep,
            keepsRepeatedKeys: keepsRepeatedKeys)
        do {
            return try reader.document()
        } catch {
            let stopped = min(reader.index, reader.bytes.count)
            let before = reader.bytes[..<stopped]
            let lineStart = before.lastIndex(of: 10).map { $0 + 1 } ?? 0
            let location = SourceLocation(
                line: before.count { $0 == 10 } + 1, column: stopped - lineStart + 1, offset: stopped + skipped)
            throw ConfigurationReadError(
                diagnostics: [.error(.importJSON, "not JSON: \(error.message)", at: location)])
        }
    }
}
