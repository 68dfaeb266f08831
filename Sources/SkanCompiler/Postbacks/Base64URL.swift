/// Decodes base64url (RFC 4648 §5, padding optional), as JWS segments are encoded.
enum Base64URL {
    /// Each byte's 6-bit value, 0xFF for bytes outside the alphabet. Callers keep a reference and pass it
    /// in, so a hot loop does not check the global's initialisation on every call.
    static let table: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8.enumerated() {
            table[Int(byte)] = UInt8(index)
        }
        return table
    }()

    /// Decodes `bytes[start..<end]` into `output` (cleared first); false when the text is not base64url.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, into output: inout [UInt8],
                       table: [UInt8]) -> Bool {
        output.removeAll(keepingCapacity: true)
        var end = end
        while end > start, bytes[end - 1] == UInt8(ascii: "=") { end -= 1 }
        guard (end - start) % 4 != 1 else { return false }
        // Sized up front and written through a pointer: an append per byte shows in a hot loop.
        output.append(contentsOf: repeatElement(0, count: (end - start) * 3 / 4))
        let written = output.withUnsafeMutableBufferPointer { output -> Int? in
            var accumulator: UInt32 = 0
            var bits = 0
            var count = 0
            for index in start..<end {
                let value = table[Int(bytes[index])]
                guard value != 0xFF else { return nil }
                accumulator = (accumulator << 6) | UInt32(value)
                bits += 6
                if bits >= 8 {
                    bits -= 8
                    output[count] = UInt8(truncatingIfNeeded: accumulator >> UInt32(bits))
                    count += 1
                }
            }
            return count
        }
        guard let written else { return false }
        output.removeLast(output.count - written)
        return true
    }
}
