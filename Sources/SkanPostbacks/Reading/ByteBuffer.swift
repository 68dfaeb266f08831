/// A growable byte buffer for output rows: appends without the uniqueness and bounds bookkeeping of
/// `Array`, which shows in a loop that appends some forty pieces per postback.
final class ByteBuffer {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 1 << 16) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    func removeAll() { count = 0 }

    @inline(__always)
    private func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
        var newCapacity = capacity * 2
        while newCapacity < count + extra { newCapacity *= 2 }
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        larger.update(from: base, count: count)
        base.deallocate()
        base = larger
        capacity = newCapacity
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    @inline(__always)
    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        let length = bytes.count
        guard let source = bytes.baseAddress, length > 0 else { return }
        reserve(length)
        if length <= 16 {
            // Most cells are short: two overlapping word copies (or a few bytes) beat a call into the C
            // library. Both words lie inside the piece, so nothing outside it is read or written.
            let target = UnsafeMutableRawPointer(base + count)
            let from = UnsafeRawPointer(source)
            if length >= 8 {
                let first = from.loadUnaligned(as: UInt64.self)
                let last = from.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
                target.storeBytes(of: first, as: UInt64.self)
                target.storeBytes(of: last, toByteOffset: length - 8, as: UInt64.self)
            } else if length >= 4 {
                let first = from.loadUnaligned(as: UInt32.self)
                let last = from.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self)
                target.storeBytes(of: first, as: UInt32.self)
                target.storeBytes(of: last, toByteOffset: length - 4, as: UInt32.self)
            } else {
                for offset in 0..<length { base[count + offset] = source[offset] }
            }
        } else {
            (base + count).update(from: source, count: length)
        }
        count += length
    }

    /// An integer in decimal, its digits written in place from the last.
    func append(decimal value: Int) {
        if value < 0 { append(UInt8(ascii: "-")) }
        var remaining = value.magnitude
        var digits = 1
        var threshold: UInt = 10
        while remaining >= threshold {
            digits += 1
            if digits == 20 { break }  // 10^19 is the largest power of ten a UInt holds
            threshold *= 10
        }
        reserve(digits)
        var position = count + digits
        repeat {
            position -= 1
            base[position] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: remaining % 10)
            remaining /= 10
        } while remaining > 0
        count += digits
    }

    func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    func append(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    @inline(__always)
    func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
}
