/// Decodes base64url (RFC 4648 §5, padding optional), as JWS segments are encoded.
package enum Base64URL {
    /// Each byte's 6-bit value, 0xFF for bytes outside the alphabet. Callers keep a reference and pass it
    /// in, so a hot loop does not check the global's initialisation on every call.
    package static let table: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8.enumerated() {
            table[Int(byte)] = UInt8(index)
        }
        return table
    }()

    /// The same for standard base64 (RFC 4648 §4: `+` and `/`), as SKAdNetwork signatures and keys are written.
    package static let standardTable: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            table[Int(byte)] = UInt8(index)
        }
        return table
    }()

    /// Decodes `text` with `table`; nil when it is not in that alphabet.
    package static func decode(_ text: [UInt8], table: [UInt8]) -> [UInt8]? {
        var output: [UInt8] = []
        let valid = text.withUnsafeBufferPointer { decode($0, 0, $0.count, into: &output, table: table) }
        return valid ? output : nil
    }

    /// Decodes `bytes[start..<end]` into `output` (cleared first); false when the text is not base64url.
    package static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, into output: inout [UInt8],
        table: [UInt8]
    ) -> Bool {
        output.removeAll(keepingCapacity: true)
        var end = end
        while end > start, bytes[end - 1] == UInt8(ascii: "=") { end -= 1 }
        guard (end - start) % 4 != 1 else { return false }
        // Sized up front and written through pointers: four characters make three bytes; a last group
        // of two or three characters makes one or two.
        output.append(contentsOf: repeatElement(0, count: (end - start) * 3 / 4))
        let valid = table.withUnsafeBufferPointer { table in
            output.withUnsafeMutableBufferPointer { output -> Bool in
                var index = start
                var count = 0
                var invalid: UInt8 = 0
                while index + 4 <= end {
                    let a = table[Int(bytes[index])]
                    let b = table[Int(bytes[index + 1])]
                    let c = table[Int(bytes[index + 2])]
                    let d = table[Int(bytes[index + 3])]
                    invalid |= a | b | c | d
                    let group = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                    output[count] = UInt8(truncatingIfNeeded: group >> 16)
                    output[count + 1] = UInt8(truncatingIfNeeded: group >> 8)
                    output[count + 2] = UInt8(truncatingIfNeeded: group)
                    index += 4
                    count += 3
                }
                if index < end {
                    var group: UInt32 = 0
                    for offset in 0..<(end - index) {
                        let value = table[Int(bytes[index + offset])]
                        invalid |= value
                        group |= UInt32(value) << UInt32(18 - 6 * offset)
                    }
                    output[count] = UInt8(truncatingIfNeeded: group >> 16)
                    if end - index == 3 { output[count + 1] = UInt8(truncatingIfNeeded: group >> 8) }
                }
                // Alphabet values are below 64; 0xFF marks a byte outside the alphabet.
                return invalid & 0xC0 == 0
            }
        }
        return valid
    }

    /// `bytes` in standard base64 with padding (RFC 4648 §4), or base64url without it (§5) when `url`.
    package static func encode(_ bytes: [UInt8], url: Bool = false) -> String {
        let alphabet = Array(
            (url
                ? "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
                : "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/").utf8)
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            let chunk = (0..<3).reduce(0) { $0 << 8 | ($1 < count ? Int(bytes[index + $1]) : 0) }
            for position in 0...count { output.append(alphabet[(chunk >> (18 - 6 * position)) & 63]) }
            if !url { output += Array(repeating: UInt8(ascii: "="), count: 3 - count) }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }
}
