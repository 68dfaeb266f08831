/// PEM text (RFC 7468): the DER of the first block whose label ends with a suffix (`PRIVATE KEY` takes `EC PRIVATE
/// KEY` and PKCS #8's `PRIVATE KEY`; `openssl ecparam -genkey` writes an `EC PARAMETERS` block first, skipped).
package enum PEM {
    /// The DER of the first block labelled `... suffix`; nil when there is none or its base64 is broken.
    package static func der(_ text: String, labelEndingWith suffix: String) -> [UInt8]? {
        var body = ""
        var inBlock = false
        var found = false
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingPrefix(while: \.isWhitespace)
            if trimmed.hasPrefix("-----BEGIN ") {
                inBlock = !found && (trimmed.hasSuffix(" \(suffix)-----") || trimmed == "-----BEGIN \(suffix)-----")
                found = found || inBlock
            } else if trimmed.hasPrefix("-----END ") {
                if inBlock { break }
            } else if inBlock {
                body += trimmed
            }
        }
        guard found else { return nil }
        return Base64URL.decode(Array(body.utf8).filter { $0 > 0x20 }, table: Base64URL.standardTable)
    }
}
