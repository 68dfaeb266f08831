#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

/// Streams JSON-lines postbacks through decoding, checks and the row writer in bounded memory. The input
/// is cut into batches of whole lines (`LineBatcher`); batches are decoded in parallel (`BatchDecoder`),
/// then merged strictly in input order (`PostbackMerger`), where the duplicate check, the summary and the
/// output happen. The merge of one round runs while the next round decodes. Only the duplicate index grows
/// with the input. I/O stays with the caller: it hands in a read function and a sink.
public struct PostbackReader {
    /// Lines longer than this get the status `line-too-long` and are skipped without being held in memory.
    public static let maximumLineBytes = 1 << 20

    private let merger: PostbackMerger
    /// Three sets of batch slots: one is filled, one decodes, one is merged.
    private let slots: [[Slot]]
    private let chunkBytes: Int
    private let threads: Int

    /// `threads`: how many batches decode at once (default: the active processors). 1 decodes on the
    /// calling thread only. The output is the same for every value.
    public init(schema: Schema, format: PostbackRowWriter.Format, withFileColumn: Bool, chunkBytes: Int = 1 << 21,
                threads: Int? = nil, sink: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
        let threads = max(1, min(threads ?? activeProcessorCount(), 16))
        self.threads = threads
        self.chunkBytes = max(1, chunkBytes)
        let templates = RowTemplates(schema: schema, format: format, withFile: withFileColumn)
        merger = PostbackMerger(schema: schema, format: format, withFileColumn: withFileColumn, templates: templates, sink: sink)
        let perRound = threads == 1 ? 1 : threads * 4
        let capacity = self.chunkBytes + 4096
        slots = (0..<3).map { _ in
            (0..<perRound).map { _ in
                (LineBatch(capacity: capacity),
                 BatchDecoder(schema: schema, format: format, withFileColumn: withFileColumn, templates: templates,
                              maximumLineBytes: PostbackReader.maximumLineBytes))
            }
        }
    }

    public var summary: PostbackSummary { merger.summary }

    public func writeHeader() {
        merger.writeHeader()
    }

    /// Reads one input to its end. `read` fills the buffer it is given and returns the byte count, 0 at
    /// the end, or a negative number on failure (then this returns false after the lines read so far).
    public mutating func read(name: String, using read: (UnsafeMutableBufferPointer<UInt8>) -> Int) -> Bool {
        for slot in slots.joined() { slot.decoder.setFile(name) }
        return withoutActuallyEscaping(read) { read in
            let input = BatchInput(LineBatcher(chunkBytes: chunkBytes, maximumLineBytes: PostbackReader.maximumLineBytes), read)
            // Three sets of slots rotate: in round k, set k-1 decodes, set k-2 is merged, set k is filled.
            input.fill(slots[0])
            var decoding = input.take()
            var merging: [Slot] = []
            var round = 1
            while !(decoding.isEmpty && merging.isEmpty) {
                runRound(decode: decoding, merge: merging, fill: input.atEnd ? nil : (input, slots[round % slots.count]))
                merging = decoding
                decoding = input.take()
                round += 1
            }
            return !input.failed
        }
    }

    typealias Slot = (batch: LineBatch, decoder: BatchDecoder)

    /// Decodes one set of batches in parallel while the previous set is merged (in order) and the next is
    /// filled from the input, each on a thread of its own.
    private func runRound(decode: [Slot], merge: [Slot], fill: (BatchInput, [Slot])?) {
        let work = UncheckedSendable((decode, merge, fill, merger))
        let iterations = decode.count + 2
        // The fill and the merge are single tasks that take longest, so they start first and the decoding
        // of batches fills in around them.
        let body: @Sendable (Int) -> Void = { index in
            let (decode, merge, fill, merger) = work.value
            if index == 0 {
                if let (input, slots) = fill { input.fill(slots) }
            } else if index == 1 {
                for slot in merge { merger.merge(slot.batch, decoder: slot.decoder) }
            } else {
                decode[index - 2].decoder.decode(decode[index - 2].batch)
            }
        }
        if threads == 1 {
            for index in 0..<iterations { body(index) }
        } else {
            DispatchQueue.concurrentPerform(iterations: iterations, execute: body)
        }
    }
}

/// Handing non-Sendable work to `concurrentPerform`: every iteration touches its own batch and decoder,
/// and only the merge iteration touches the merger.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Processors available to this process.
func activeProcessorCount() -> Int {
    max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
}
