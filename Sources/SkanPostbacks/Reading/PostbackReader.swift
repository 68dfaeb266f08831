import SkanCore
import SkanFiles
public import SkanSchema

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Streams JSON-lines postbacks through decoding, checks and the row writer in bounded memory. The input
/// is cut into batches of whole lines (`LineBatcher`); batches are decoded in parallel into finished rows
/// (`BatchDecoder`), then merged strictly in input order (`PostbackMerger`), where the duplicate check runs
/// and the rows go to the output. `BatchPipeline` keeps every thread busy with whichever stage is ready.
/// Only the duplicate index grows with the input.
///
/// ```swift
/// let reader = PostbackReader(schema: schema, output: FileDescriptorOutput(descriptor: STDOUT_FILENO))
/// reader.writeHeader()
/// var input = FileDescriptorInput(descriptor: STDIN_FILENO)
/// try reader.read(&input, name: "<stdin>")
/// print(reader.summary.text)
/// ```
///
/// A class: it owns its batches and its duplicate index, which a copy would share.
public final class PostbackReader {
    /// Lines longer than this get the status `line-too-long` and are skipped without being held in memory.
    public static let maximumLineBytes = LineLimit.maximumBytes

    private let merger: PostbackMerger
    /// The ring of batches that are filled, decoded and merged at the same time.
    private let slots: [Slot]
    private let chunkBytes: Int
    private let threads: Int

    /// How a reader reads and writes; every field has a default.
    public struct Options: Sendable {
        /// CSV (RFC 4180) or JSON lines.
        public var format: PostbackFormat = .csv
        /// Whether rows start with the name of the input they come from.
        public var withFileColumn = false
        /// Whether rows have a `received_at` column (the inputs' `ReceiptTimes`, given to `read`).
        public var withReceiptColumn = false
        /// How much input a batch holds.
        public var chunkBytes = 1 << 20
        /// How many batches decode at once (nil: the active processors). 1 decodes on the calling thread only.
        /// The output is the same for every value.
        public var threads: Int? = nil
        /// The size of the input, when it is known (regular files); it sizes the duplicate index.
        public var inputBytes: Int? = nil
        /// How signatures are checked (by default with Apple's keys, development postbacks refused); nil checks
        /// none and leaves the `signature` column empty.
        public var verification: PostbackVerification? = PostbackVerification()
        /// What to count `ok` rows by, for a report (`tally`); nil counts no groups.
        public var grouping: Grouping? = nil
        /// Whether rows are rendered and written to the output. A report, which reads only the counts, turns
        /// this off: rendering is about a quarter of decoding.
        public var writesRows = true
        /// The duplicate index's first size, instead of the one `inputBytes` gives (tests make it small).
        package var duplicateCapacity: Int? = nil
        /// Told who each decoded postback (each JSON object) is about and what its signature came to, on the
        /// thread that decodes it: how a receiver counts failed signatures per ad network and app.
        package var senders: (@Sendable (PostbackSender) -> Void)? = nil

        /// CSV, verification with Apple's keys, no file column, one thread per core.
        public init() {}

        /// These options with `change` applied: `.init { $0.format = .jsonl }`.
        public init(_ change: (inout Options) -> Void) {
            change(&self)
        }
    }

    /// What a reader's tally groups `ok` rows by.
    public struct Grouping: Sendable {
        /// The key's parts, in order.
        public var groupings: [PostbackGrouping]
        /// Whether a fine value of 0 counts as no value.
        public var zeroIsNull: Bool

        /// Groups by `groupings`.
        public init(groupings: [PostbackGrouping], zeroIsNull: Bool = false) {
            self.groupings = groupings
            self.zeroIsNull = zeroIsNull
        }
    }

    /// How many keys the duplicate index takes before it first grows. Growing rehashes every key in the
    /// ordered (single-threaded) merge, so a large input should not have to; the table is zeroed up front,
    /// so a small one should not pay for room it will not use. With the size known, room for a postback
    /// every 128 bytes (postbacks run 200-400 bytes); with it unknown (standard input), a million.
    static func duplicateCapacity(forInputBytes bytes: Int?) -> Int {
        guard let bytes else { return 1 << 20 }
        return min(1 << 20, max(1 << 10, bytes / 128))
    }

    /// A reader for postbacks of one schema.
    public convenience init(schema: Schema, options: Options = Options(), output: some PostbackOutput) {
        self.init(versions: LiveVersions([schema]), options: options, output: output)
    }

    /// A reader for postbacks from several versions of a schema live together: each fine value is decoded
    /// with the version it belongs to (a `schema_version` column, the status `ambiguous-version` for a value
    /// valid in several, `invalid-fine` for one valid in none). Rows go to `output`, in input order.
    public convenience init(versions: LiveVersions, options: Options = Options(), output: some PostbackOutput) {
        self.init(catalog: SchemaCatalog(versions), options: options, output: output)
    }

    /// A reader for postbacks of several apps, each decoded with its app's versions (`SchemaCatalog`); a postback
    /// of an app the catalog does not hold is kept as `unknown-app`. Grouped (reports), a catalog that routes by
    /// app groups by `app_id` first, so that each group is one app's (`PostbackTally.app(_:)`).
    public init(catalog: SchemaCatalog, options: Options = Options(), output: some PostbackOutput) {
        precondition(
            options.grouping == nil || !catalog.routesByApp || options.grouping?.groupings.first == .appID,
            "a report of many apps groups by app first")
        let duplicateCapacity =
            options.duplicateCapacity ?? PostbackReader.duplicateCapacity(forInputBytes: options.inputBytes)
        let verifier = options.verification.map(SignatureVerifier.init)
        let sink: (UnsafeBufferPointer<UInt8>) -> Void = { output.write($0) }
        let threads = max(1, min(options.threads ?? activeProcessorCount(), 16))
        self.threads = threads
        self.chunkBytes = max(1, options.chunkBytes)
        let templates = RowTemplates(
            catalog: catalog, format: options.format, withFile: options.withFileColumn,
            withReceipt: options.withReceiptColumn)
        merger = PostbackMerger(
            catalog: catalog, format: options.format, templates: templates, duplicateCapacity: duplicateCapacity,
            grouping: options.grouping, writesRows: options.writesRows,
            sink: sink)
        // Enough batches in flight that every thread finds one to decode while one is filled and one merged.
        let capacity = self.chunkBytes + 4096
        slots = (0..<(threads == 1 ? 1 : threads * 3 + 2)).map { _ in
            (
                LineBatch(capacity: capacity),
                BatchDecoder(
                    catalog: catalog, format: options.format, templates: templates,
                    maximumLineBytes: PostbackReader.maximumLineBytes, verifier: verifier, grouping: options.grouping,
                    writesRows: options.writesRows, senders: options.senders),
                DecodedBatch(summary: PostbackSummary(catalog: catalog), grouped: options.grouping != nil)
            )
        }
    }

    /// The counts of everything read so far.
    public var summary: PostbackSummary { merger.summary }

    /// The `ok` rows of everything read so far, per group; nil unless `Options.grouping` is set.
    public var tally: PostbackTally? { merger.tally }

    /// Writes the header row (CSV only; JSON lines have none).
    public func writeHeader() {
        merger.writeHeader()
    }

    /// Reads one input to its end; `name` fills the file column and `receipts` the receipt time column. Throws
    /// the input's error when it cannot be read, after the rows of the lines read before it have been written.
    public func read(_ input: inout some PostbackInput, name: String, receipts: ReceiptTimes? = nil) throws {
        var failure: (any Error)?
        func readInto(_ buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
            do {
                var buffer = buffer
                return try input.read(into: &buffer)
            } catch {
                failure = error
                return -1
            }
        }
        withoutActuallyEscaping(readInto) { read in
            let batches = BatchInput(
                LineBatcher(chunkBytes: chunkBytes, maximumLineBytes: PostbackReader.maximumLineBytes), file: name,
                receipts: receipts, read)
            BatchPipeline(slots: slots, input: batches, merger: merger).run(threads: threads)
        }
        if let failure { throw failure }
    }

    /// One batch in flight: its lines, the decoder that works on them, and what it made of them.
    typealias Slot = (batch: LineBatch, decoder: BatchDecoder, decoded: DecodedBatch)
}

/// Handing non-Sendable work to `concurrentPerform`: every task touches its own batch and decoder, only
/// one task at a time fills or merges, and the pipeline's own state is guarded by its lock.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Processors available to this process.
func activeProcessorCount() -> Int {
    max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
}
