/// Group numbers by their encoded keys (`PostbackTally.encodedKey`): an open-addressing table over one
/// array of key bytes, so counting a row makes no string. The hash is Swift's `Hasher`, seeded per process:
/// keys an input chooses cannot make the lookups slow.
struct GroupNumbers {
    /// Every key's bytes, one after another, in number order; key `n` ends at `ends[n]`.
    private var bytes: [UInt8] = []
    private var ends: [Int] = []
    /// Each key's hash, by number.
    private var hashes: [Int] = []
    /// A key's number plus one, at its hash's slot or the next free one after; 0 for a free slot. Kept at
    /// most half full.
    private var slots = [Int32](repeating: 0, count: 64)

    /// How many keys there are.
    var count: Int { ends.count }

    /// The number of `key`, and whether it was new (then it is `count - 1`).
    mutating func number(of key: UnsafeBufferPointer<UInt8>) -> (number: Int, isNew: Bool) {
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(key))
        let hash = hasher.finalize()
        let mask = slots.count - 1
        var slot = hash & mask
        while slots[slot] != 0 {
            let number = Int(slots[slot]) - 1
            if hashes[number] == hash, matches(number, key) { return (number, false) }
            slot = (slot + 1) & mask
        }
        let number = ends.count
        bytes.append(contentsOf: key)
        ends.append(bytes.count)
        hashes.append(hash)
        slots[slot] = Int32(number + 1)
        if 2 * ends.count > slots.count { grow() }
        return (number, true)
    }

    /// Calls `body` with each key, in number order.
    func forEachKey(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        bytes.withUnsafeBufferPointer { all in
            var start = 0
            for end in ends {
                body(UnsafeBufferPointer(rebasing: all[start..<end]))
                start = end
            }
        }
    }

    /// Forgets every key, keeping the room.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        hashes.removeAll(keepingCapacity: true)
        for index in slots.indices { slots[index] = 0 }
    }

    private func matches(_ number: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = number == 0 ? 0 : ends[number - 1]
        guard ends[number] - start == key.count else { return false }
        return bytes.withUnsafeBufferPointer {
            UnsafeBufferPointer(rebasing: $0[start..<ends[number]]).elementsEqual(key)
        }
    }

    private mutating func grow() {
        slots = [Int32](repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for (number, hash) in hashes.enumerated() {
            var slot = hash & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(number + 1)
        }
    }
}
