import SkanCompiler
import SkanPostbacks

/// What the stored postbacks came to, through the engine `skanc postbacks` runs: each batch that became
/// durable is decoded as lines of a file would be (statuses, signatures, duplicates across everything stored
/// since start), so `/metrics` counts exactly what the command would.
final class IntakeCounts {
    private let reader: PostbackReader

    init(versions: LiveVersions, verification: PostbackVerification?) {
        let options = PostbackReader.Options {
            $0.threads = 1
            $0.writesRows = false
            $0.verification = verification
        }
        reader = PostbackReader(versions: versions, options: options, output: DiscardedLines())
    }

    /// Counts a durable batch (each body one line).
    func count(_ bodies: [[UInt8]]) {
        var bytes: [UInt8] = []
        for body in bodies {
            bytes += body
            bytes.append(10)
        }
        var input = ByteArrayInput(bytes)
        try? reader.read(&input, name: "intake")
    }

    var summary: PostbackSummary { reader.summary }
}

/// Rows decoded for counting only.
final class DiscardedLines: PostbackOutput {
    func write<Bytes: Collection<UInt8>>(_ bytes: Bytes) {}
}
