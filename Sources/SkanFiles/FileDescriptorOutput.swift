#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Writing to an open file descriptor, retrying interrupted and partial writes. The first write that fails
/// (a full disk, a closed pipe) is kept in `failure` and ends the writing, so the caller can report it and
/// exit with an error instead of claiming the output was written. Written from one thread at a time.
public final class FileDescriptorOutput: @unchecked Sendable {
    /// The descriptor written to; the caller opens and closes it.
    public let descriptor: Int32
    /// The `errno` of the first write that failed, or nil.
    public private(set) var failure: Int32?

    /// Writes to `descriptor`, which stays open.
    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Takes the next output bytes (`bytes` is read only during the call); after a failed write, nothing.
    public func write<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
        guard failure == nil else { return }
        let descriptor = self.descriptor
        let outcome: Int32?? = bytes.withContiguousStorageIfAvailable { storage -> Int32? in
            guard let base = storage.baseAddress else { return nil }
            var offset = 0
            while offset < storage.count {
                let count = systemWrite(descriptor, base + offset, storage.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += count
            }
            return nil
        }
        switch outcome {
        case .none: write(Array(bytes))
        case .some(let error): failure = error
        }
    }
}

// `write(2)` by a name that the method above does not shadow.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
