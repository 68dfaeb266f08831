import SkanCore

/// The transaction-ids and postback-identifiers seen so far, to flag duplicates. This is the one part of
/// postback reading whose memory grows with the input: a UUID (the usual key) is kept as 16 bytes in an
/// open-addressing table (about 32 bytes per postback at the table's load); any other key as its text.
/// Not copyable: the index owns its table, and a copy would share it.
struct DuplicateKeys: ~Copyable {
    /// Pairs (high, low); (0, 0) marks an empty slot. Zeroed when it is made: memory that the system maps
    /// lazily would first be read as a shared zero page, and the write that follows makes the system
    /// interrupt every other thread of the process to flush its address cache.
    private var slots: UnsafeMutablePointer<UInt64>
    /// Slots (pairs), a power of two.
    private var capacity: Int
    private var count = 0
    private var hasZeroUUID = false
    private var others: Set<String> = []
    /// Secret per index, mixed into every slot choice: no one who sends postbacks can aim many keys at
    /// one slot (hash flooding), whatever the identifiers look like.
    private let seed = (UInt64.random(in: .min ... .max), UInt64.random(in: .min ... .max))

    /// `capacity`: slots, rounded up to a power of two (the probe wraps with a mask).
    init(capacity: Int = 1 << 10) {
        var slots = 16
        while slots < capacity { slots *= 2 }
        self.capacity = slots
        self.slots = Self.zeroedTable(pairs: slots)
    }

    deinit { slots.deallocate() }

    private static func zeroedTable(pairs: Int) -> UnsafeMutablePointer<UInt64> {
        let table = UnsafeMutablePointer<UInt64>.allocate(capacity: pairs * 2)
        table.initialize(repeating: 0, count: pairs * 2)
        return table
    }

    /// Records a key that is not a canonical UUID; true when it was seen before.
    mutating func insert(text: String) -> Bool {
        !others.insert(text).inserted
    }

    /// Reads the slot where a UUID's search starts, so that a later `insert` finds it in the cache; the
    /// merge touches several keys ahead, letting their memory loads overlap instead of waiting in turn.
    @inline(__always)
    func touch(high: UInt64, low: UInt64) -> UInt64 {
        slots[startSlot(high: high, low: low) * 2]
    }

    /// Every one of the 128 bits moves the start slot: time-based (version 1) UUIDs differ only in a few
    /// bits of the high word, and a table indexed by low bits alone would put them all in one cluster.
    @inline(__always)
    private func startSlot(high: UInt64, low: UInt64) -> Int {
        let mixed = Self.mix(Self.mix(high ^ seed.0) ^ low ^ seed.1)
        return Int(truncatingIfNeeded: mixed >> 32) & (capacity - 1)
    }

    /// MurmurHash3's 64-bit finalizer: a bijection in which every input bit flips about half the output bits.
    @inline(__always)
    private static func mix(_ value: UInt64) -> UInt64 {
        var x = value
        x ^= x >> 33
        x &*= 0xFF51_AFD7_ED55_8CCD
        x ^= x >> 33
        x &*= 0xC4CE_B9FE_1A85_EC53
        x ^= x >> 33
        return x
    }

    /// Records a UUID's 128 bits; true when it was seen before.
    @inline(__always)
    mutating func insert(high: UInt64, low: UInt64) -> Bool {
        if high == 0 && low == 0 {
            defer { hasZeroUUID = true }
            return hasZeroUUID
        }
        if (count + 1) * 2 > capacity { grow() }
        let mask = capacity - 1
        var slot = startSlot(high: high, low: low)
        while true {
            let (h, l) = (slots[slot * 2], slots[slot * 2 + 1])
            if h == 0 && l == 0 {
                slots[slot * 2] = high
                slots[slot * 2 + 1] = low
                count += 1
                return false
            }
            if h == high && l == low { return true }
            slot = (slot + 1) & mask
        }
    }

    /// Doubles the table (at half load, so probes stay short) and reinserts every key.
    private mutating func grow() {
        let (old, oldCapacity) = (slots, capacity)
        capacity *= 2
        slots = Self.zeroedTable(pairs: capacity)
        count = 0
        for pair in 0..<oldCapacity where old[pair * 2] != 0 || old[pair * 2 + 1] != 0 {
            _ = insert(high: old[pair * 2], low: old[pair * 2 + 1])
        }
        old.deallocate()
    }

    /// Hex digit values by byte; 0xFF for anything else.
    private static let hexValues: [UInt8] = (0..<256).map { UInt8($0).hexDigitValue ?? 0xFF }

    /// The 128 bits of a canonical UUID (`8-4-4-4-12` hex digits, either case), or nil.
    @inline(__always)
    static func uuid(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> (UInt64, UInt64)? {
        guard end - start == 36, bytes[start + 8] == UInt8(ascii: "-"), bytes[start + 13] == UInt8(ascii: "-"),
            bytes[start + 18] == UInt8(ascii: "-"), bytes[start + 23] == UInt8(ascii: "-")
        else { return nil }
        return hexValues.withUnsafeBufferPointer { table -> (UInt64, UInt64)? in
            var invalid: UInt8 = 0
            @inline(__always) func nibbles(_ range: Range<Int>, into value: inout UInt64) {
                for offset in range {
                    let digit = table[Int(bytes[start + offset])]
                    invalid |= digit
                    value = value << 4 | UInt64(digit & 0x0F)
                }
            }
            var high: UInt64 = 0
            var low: UInt64 = 0
            nibbles(0..<8, into: &high)
            nibbles(9..<13, into: &high)
            nibbles(14..<18, into: &high)
            nibbles(19..<23, into: &low)
            nibbles(24..<36, into: &low)
            return invalid & 0xF0 == 0 ? (high, low) : nil
        }
    }
}
