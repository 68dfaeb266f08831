#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reading what arrives on an open descriptor (a pipe, standard input) as it arrives: the partner of
/// `FileDescriptorOutput` for a stream read piece by piece (`skanc lsp`), retrying interrupted reads.
package struct FileDescriptorInput {
    /// The descriptor read from; the caller opens and closes it.
    package let descriptor: Int32
    private var buffer: [UInt8]

    /// Reads `descriptor` in pieces of at most `capacity` bytes.
    package init(descriptor: Int32, capacity: Int = 64 << 10) {
        self.descriptor = descriptor
        buffer = Array(repeating: 0, count: capacity)
    }

    /// The next bytes, as soon as some arrive (waiting until then); empty at the end of the input, nil when the
    /// read fails (`errno` says why).
    package mutating func next() -> ArraySlice<UInt8>? {
        let descriptor = self.descriptor
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            return count < 0 ? nil : buffer[..<count]
        }
    }
}
