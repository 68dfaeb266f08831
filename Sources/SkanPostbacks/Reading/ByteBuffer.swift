/// A growable byte buffer for output rows: appends without the uniqueness and bounds bookkeeping of
/// `Array`, which shows in a loop that appends some forty pieces per postback. A run of appends goes
/// through a `ByteCursor`, whose pointers stay in registers; the buffer's own appends are cursors of one.
final class ByteBuffer {
    private(set) var base: UnsafeMutablePointer<UInt8>
    fileprivate(set) var count = 0
    fileprivate private(set) var capacity: Int

    init(capacity: Int = 1 << 16) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    func removeAll() { count = 0 }

    /// Makes room for `extra` bytes after the first `count`.
    fileprivate func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
        var newCapacity = capacity * 2
        while newCapacity < count + extra { newCapacity *= 2 }
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        larger.update(from: base, count: count)
        base.deallocate()
        base = larger
        capacity = newCapacity
    }

    /// A cursor at the end of the bytes; what it appends counts once it is handed back to `commit`.
    @inline(__always)
    func cursor() -> ByteCursor {
        ByteCursor(self)
    }

    /// Takes the bytes `cursor` appended (the buffer must not have been appended to since it was made).
    @inline(__always)
    func commit(_ cursor: ByteCursor) {
        count = base.distance(to: cursor.next)
    }

    /// Appends what `write` writes through a cursor of its own.
    @inline(__always)
    func write(_ write: (inout ByteCursor) -> Void) {
        var cursor = cursor()
        write(&cursor)
        commit(cursor)
    }

    func append(_ byte: UInt8) { write { $0.append(byte) } }
    func append(_ bytes: UnsafeBufferPointer<UInt8>) { write { $0.append(bytes) } }
    func append(decimal value: Int) { write { $0.append(decimal: value) } }
    func append(_ text: String) { write { $0.append(text) } }
}

/// Appends to a `ByteBuffer` through a pointer to its next byte and one to the end of its room: a value
/// the optimizer keeps in registers across a row's appends, where the buffer's stored count would be
/// loaded and stored again around every byte written (a store through a byte pointer may alias it).
struct ByteCursor {
    /// The buffer outlives every cursor made from it: a cursor lives within one call of its maker, which
    /// holds the buffer. Unowned, so that making one is not a reference count.
    private unowned(unsafe) let buffer: ByteBuffer
    fileprivate private(set) var next: UnsafeMutablePointer<UInt8>
    private var end: UnsafeMutablePointer<UInt8>

    @inline(__always)
    fileprivate init(_ buffer: ByteBuffer) {
        self.buffer = buffer
        next = buffer.base + buffer.count
        end = buffer.base + buffer.capacity
    }

    /// Where the next byte goes, counted from the buffer's start.
    var offset: Int { buffer.base.distance(to: next) }

    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if next.distance(to: end) < extra { grow(extra) }
    }

    @inline(never)
    private mutating func grow(_ extra: Int) {
        buffer.commit(self)
        buffer.reserve(extra)
        next = buffer.base + buffer.count
        end = buffer.base + buffer.capacity
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        next.initialize(to: byte)
        next += 1
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        let length = bytes.count
        guard let source = bytes.baseAddress, length > 0 else { return }
        reserve(length)
        if length <= 16 {
            // Most cells are short: two overlapping word copies (or a few bytes) beat a call into the C
            // library. Both words lie inside the piece, so nothing outside it is read or written.
            let target = UnsafeMutableRawPointer(next)
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
                for offset in 0..<length { next[offset] = source[offset] }
            }
        } else {
            next.update(from: source, count: length)
        }
        next += length
    }

    /// An integer in decimal, its digits written in place from the last.
    mutating func append(decimal value: Int) {
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
        var position = next + digits
        repeat {
            position -= 1
            position.initialize(to: UInt8(ascii: "0") + UInt8(truncatingIfNeeded: remaining % 10))
            remaining /= 10
        } while remaining > 0
        next += digits
    }

    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    @inline(__always)
    mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
}
