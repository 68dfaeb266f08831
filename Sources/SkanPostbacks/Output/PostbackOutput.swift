public import SkanFiles

/// Where `PostbackReader` writes its output rows.
public protocol PostbackOutput: AnyObject {
    /// Takes the next output bytes (UTF-8, whole rows). `bytes` can be read only during the call.
    func write<Bytes: Collection<UInt8>>(_ bytes: Bytes)
}

/// A descriptor is one place postbacks' rows go (`skanc postbacks` to standard output or a file).
extension FileDescriptorOutput: PostbackOutput {}

/// Collects the output in memory.
public final class ByteArrayOutput: PostbackOutput {
    /// Everything written so far.
    public private(set) var bytes: [UInt8] = []

    /// A collector with no bytes yet.
    public init() {}

    /// Takes the next output bytes; see `PostbackOutput`.
    public func write<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
        self.bytes.append(contentsOf: bytes)
    }
}
