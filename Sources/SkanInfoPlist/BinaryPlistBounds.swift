/// Checks a binary property list (`bplist00`) before Foundation reads it, so that a small file cannot make the
/// reader's work explode: Foundation expands every reference to an array, set or dictionary into a copy, so a
/// 165-byte file whose containers each refer twice to the next one doubles the work at every level. Here a
/// container may be referred to once at most (and the top object not at all), which makes the expanded tree
/// no larger than the object table; shared strings and numbers are fine. Also gives the top-level dictionary's
/// repeated keys, which Foundation would silently merge. One pass over the object table.
enum BinaryPlistBounds {
    struct Refusal: Error, Equatable {
        var reason: String
    }

    /// At most this many objects: far beyond any Info.plist or list of IDs.
    static let maximumObjects = 1 << 20

    /// Whether `bytes` start like a binary property list.
    static func isBinary(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 8 && bytes[0..<8].elementsEqual("bplist00".utf8)
    }

    /// The top-level dictionary's keys that appear more than once, after checking the bounds above.
    static func check(_ bytes: [UInt8]) throws(Refusal) -> [String] {
        guard bytes.count >= 8 + 32 else { throw Refusal(reason: "too short for a binary property list") }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        let referenceSize = Int(bytes[trailer + 7])
        let count = integer(bytes, trailer + 8, 8)
        let top = integer(bytes, trailer + 16, 8)
        let tableOffset = integer(bytes, trailer + 24, 8)
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize), count >= 1, count <= maximumObjects,
            top < count, tableOffset >= 8, tableOffset <= trailer, count <= (trailer - tableOffset) / offsetSize
        else { throw Refusal(reason: "its trailer or offset table is malformed") }
        func offset(of object: Int) throws(Refusal) -> Int {
            let value = integer(bytes, tableOffset + object * offsetSize, offsetSize)
            guard value >= 8, value < tableOffset else { throw Refusal(reason: "an object lies outside the file") }
            return value
        }
        /// The object's type nibble, its count (elements, bytes or characters) and where its contents start.
        func header(of object: Int) throws(Refusal) -> (type: UInt8, count: Int, start: Int) {
            let start = try offset(of: object)
            let marker = bytes[start]
            let type = marker >> 4
            var length = Int(marker & 0x0F)
            var contents = start + 1
            if length == 0x0F, [0x4, 0x5, 0x6, 0xA, 0xB, 0xC, 0xD].contains(type) {
                guard contents < tableOffset, bytes[contents] >> 4 == 0x1 else {
                    throw Refusal(reason: "an object's length is malformed")
                }
                let size = 1 << Int(bytes[contents] & 0x0F)
                guard size <= 8, contents + 1 + size <= tableOffset else {
                    throw Refusal(reason: "an object's length is malformed")
                }
                length = integer(bytes, contents + 1, size)
                contents += 1 + size
            }
            return (type, length, contents)
        }
        var parents = [UInt8](repeating: 0, count: count)
        for object in 0..<count {
            let (type, length, start) = try header(of: object)
            let references: Int
            switch type {
            case 0xA, 0xB, 0xC: references = length
            case 0xD: references = length * 2
            default: continue
            }
            guard length <= count * 2, start + references * referenceSize <= tableOffset else {
                throw Refusal(reason: "a container lies outside the file")
            }
            for index in 0..<references {
                let child = integer(bytes, start + index * referenceSize, referenceSize)
                guard child < count else { throw Refusal(reason: "a reference names no object") }
                let childType = try header(of: child).type
                guard [0xA, 0xB, 0xC, 0xD].contains(childType) else { continue }
                guard child != top, parents[child] == 0 else {
                    throw Refusal(
                        reason:
                            "an array or dictionary is shared by several containers, which readers expand into copies")
                }
                parents[child] = 1
            }
        }
        let root = try header(of: top)
        guard root.type == 0xD else { return [] }
        var seen: [String: Int] = [:]
        for index in 0..<root.count {
            let key = integer(bytes, root.start + index * referenceSize, referenceSize)
            if let text = try string(key) { seen[text, default: 0] += 1 }
        }
        return seen.filter { $0.value > 1 }.keys.sorted()

        func string(_ object: Int) throws(Refusal) -> String? {
            let (type, length, start) = try header(of: object)
            switch type {
            case 0x5:
                // Compared by division: a saturated length must not overflow the sum.
                guard length <= tableOffset - start else { throw Refusal(reason: "a string lies outside the file") }
                return String(decoding: bytes[start..<start + length], as: UTF8.self)
            case 0x6:
                guard length <= (tableOffset - start) / 2 else {
                    throw Refusal(reason: "a string lies outside the file")
                }
                let units = (0..<length).map { UInt16(bytes[start + 2 * $0]) << 8 | UInt16(bytes[start + 2 * $0 + 1]) }
                return String(decoding: units, as: UTF16.self)
            default: return nil
            }
        }
    }

    /// A big-endian unsigned integer of `size` bytes at `start` (the caller checked the bounds), saturated.
    private static func integer(_ bytes: [UInt8], _ start: Int, _ size: Int) -> Int {
        var value: UInt64 = 0
        for index in 0..<size { value = value << 8 | UInt64(bytes[start + index]) }
        return value > UInt64(Int.max / 2) ? Int.max / 2 : Int(value)
    }
}
