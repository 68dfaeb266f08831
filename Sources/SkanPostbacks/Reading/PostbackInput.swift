#if canImport(Darwin)
import SkanFiles
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where `PostbackReader` reads postback bytes from: a file, a pipe, memory.
public protocol PostbackInput {
    /// Writes the next bytes of the input to the start of `buffer` and returns how many (at most
    /// `buffer.count`), or 0 at the end of the input. Throws when the input cannot be read; the reader then
    /// stops, after writing the rows of the lines read so far.
    mutating func read<Buffer: MutableCollection<UInt8> & RandomAccessCollection>(into buffer: inout Buffer) throws
        -> Int
    where Buffer.Index == Int
}

/// Reading from an open file descriptor (a file, a pipe, standard input), retrying interrupted reads.
public struct FileDescriptorInput: PostbackInput {
    /// Why a read failed: the system's error number and its text.
    public struct ReadError: Error, CustomStringConvertible {
        /// The `errno` value of the failed read.
        public var code: Int32
        /// The system's text for the error.
        public var description: String { String(cString: strerror(code)) }
    }

    /// The descriptor read from; the caller opens and closes it.
    public let descriptor: Int32

    /// Reads from `descriptor`, which stays open.
    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Reads the next bytes into `buffer`; see `PostbackInput`.
    public mutating func read<Buffer: MutableCollection<UInt8> & RandomAccessCollection>(into buffer: inout Buffer)
        throws -> Int
    where Buffer.Index == Int {
        let descriptor = self.descriptor
        let count = buffer.withContiguousMutableStorageIfAvailable { storage in
            while true {
                let count = systemRead(descriptor, storage.baseAddress, storage.count)
                if count < 0 && errno == EINTR { continue }
                return count
            }
        }
        guard let count else { preconditionFailure("PostbackReader reads into contiguous storage") }
        if count < 0 { throw ReadError(code: errno) }
        return count
    }
}

/// Reading bytes held in memory, `chunk` bytes a time at most.
public struct ByteArrayInput: PostbackInput {
    private let bytes: [UInt8]
    private let chunk: Int
    private var offset = 0

    /// Reads `bytes`; `chunk` limits each read, to exercise line splitting across reads.
    public init(_ bytes: [UInt8], chunk: Int = .max) {
        self.bytes = bytes
        self.chunk = max(1, chunk)
    }

    /// Reads the next bytes into `buffer`; see `PostbackInput`.
    public mutating func read<Buffer: MutableCollection<UInt8> & RandomAccessCollection>(into buffer: inout Buffer)
        throws -> Int
    where Buffer.Index == Int {
        let count = min(buffer.count, chunk, bytes.count - offset)
        // One copy of the run, not one generic element copy per byte (the receiver counts every batch through it).
        let copied: Void? = buffer.withContiguousMutableStorageIfAvailable { target in
            bytes.withUnsafeBufferPointer { source in
                target.baseAddress!.update(from: source.baseAddress! + offset, count: count)
            }
        }
        if copied == nil {
            for index in 0..<count { buffer[buffer.startIndex + index] = bytes[offset + index] }
        }
        offset += count
        return count
    }
}

// `read(2)` by a name that the method above does not shadow.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
