// libFuzzer target: any bytes after "bplist00" through BinaryPlistBounds: no crash, no hang, and whatever it
// accepts expands into at most as many containers as the object table holds (each container has one parent
// at most and the top none).
import FuzzSupport

@testable import SkanInfoPlist

/// One input; a crash, leak or failed check is a finding.
func fuzzPlistBounds(_ input: UnsafeRawBufferPointer) -> Int32 {
    let count = input.count
    let bytes = Array("bplist00".utf8) + Array(input)
    guard (try? BinaryPlistBounds.check(bytes)) != nil else { return 0 }
    // Accepted: count the containers a reader would build from the top, stopping past the table's size.
    let trailer = bytes.count - 32
    func integer(_ start: Int, _ size: Int) -> Int {
        var value = 0
        for index in 0..<size { value = value << 8 | Int(bytes[start + index]) }
        return value
    }
    let (offsetSize, referenceSize) = (Int(bytes[trailer + 6]), Int(bytes[trailer + 7]))
    let (objects, top, table) = (integer(trailer + 8, 8), integer(trailer + 16, 8), integer(trailer + 24, 8))
    var stack = [top]
    var built = 0
    while let object = stack.popLast() {
        let start = integer(table + object * offsetSize, offsetSize)
        let marker = bytes[start]
        guard [0xA, 0xB, 0xC, 0xD].contains(marker >> 4) else { continue }
        built += 1
        if built > objects { fatalError("an accepted list expands beyond its object table") }
        var length = Int(marker & 0x0F)
        var contents = start + 1
        if length == 0x0F {
            let size = 1 << Int(bytes[contents] & 0x0F)
            length = integer(contents + 1, size)
            contents += 1 + size
        }
        let references = marker >> 4 == 0xD ? 2 * length : length
        for index in 0..<references { stack.append(integer(contents + index * referenceSize, referenceSize)) }
    }
    return 0
}

runLibFuzzer { data, count in fuzzPlistBounds(fuzzInput(data, count)) }
