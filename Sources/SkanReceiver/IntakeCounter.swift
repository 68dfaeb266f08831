import Dispatch
import SkanCompiler
import SkanPostbacks

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What the stored postbacks came to, through the engine `skanc postbacks` runs, on a thread of its own so
/// that verifying signatures never delays an acknowledgement. It reads each durable batch back from the
/// segment it went to, exactly the bytes `skanc postbacks` would read there, and decodes them as lines of a
/// file (statuses, signatures, duplicates across everything stored since start). It counts in slices of about
/// 64 KiB, each when the writer is idle, at nice 19: under a burst it yields to acknowledging and catches up in
/// the gaps and after. What waits for it is a list of byte ranges, adjacent ones joined, so falling behind holds
/// no postback in memory.
final class IntakeCounter: Sendable {
    /// Where counting stands: the counts so far, and the newest batch (by ticket) they include.
    struct Progress {
        var summary: PostbackSummary
        var countedThrough: Int
    }

    private let wake: WakePipe
    private let lock = ConditionLock()
    private let state: Guarded
    private let chunkBytes: Int

    /// What the writer, the loop and the counter share; touched only with `lock` held, except `reader`, which
    /// only the counter's thread uses.
    private final class Guarded: @unchecked Sendable {
        let reader: PostbackReader
        var ranges: [PostbackStore.StoredRange] = []
        var through = 0
        var progress: Progress
        var stopping = false

        init(reader: PostbackReader) {
            self.reader = reader
            progress = Progress(summary: reader.summary, countedThrough: 0)
        }
    }

    /// A counter whose thread `start` starts; `chunkBytes` is the slice read and counted at a time (more when one
    /// line is longer).
    init(versions: LiveVersions, verification: PostbackVerification?, wake: WakePipe, chunkBytes: Int = 64 << 10) {
        let options = PostbackReader.Options {
            $0.threads = 1
            $0.writesRows = false
            $0.verification = verification
        }
        state = Guarded(reader: PostbackReader(versions: versions, options: options, output: DiscardedLines()))
        self.wake = wake
        self.chunkBytes = chunkBytes
    }

    /// Starts counting; each slice waits until `writer` (when given) is idle.
    func start(yieldingTo writer: GroupCommit?) {
        DispatchQueue(label: "skanc.serve.counter", qos: .utility).async { [self] in
            Self.lowerCurrentThread()
            run(yieldingTo: writer)
        }
    }

    /// Nice 19 for the calling thread, where the queue's quality of service does not lower it: on Linux the nice
    /// value is a thread's own, and `setpriority` on "who" 0 changes the calling thread only (setpriority(2)).
    /// Measured in the receiver benchmark (two runs each): 45,656-48,036 requests/s at nice 19 against
    /// 40,304-40,549 at the normal priority; `SCHED_IDLE` gave 49,015-50,798 but lets a machine busy with other
    /// work starve counting for good.
    private static func lowerCurrentThread() {
        #if os(Linux) && canImport(Glibc)
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
        #endif
    }

    /// A durable batch to count; `ticket` is the newest batch it holds.
    func add(_ range: PostbackStore.StoredRange, through ticket: Int) {
        lock.holding {
            Self.join(range, into: &state.ranges)
            state.through = ticket
            lock.wakeAll()
        }
    }

    /// Adds `range` to what waits, joined to the last range when it continues it.
    static func join(_ range: PostbackStore.StoredRange, into ranges: inout [PostbackStore.StoredRange]) {
        if let last = ranges.last, last.path == range.path, last.end == range.start {
            ranges[ranges.count - 1].end = range.end
        } else {
            ranges.append(range)
        }
    }

    var progress: Progress { lock.holding { state.progress } }

    /// Ends the thread after the slice it is counting (what else waits is left: the process is ending).
    func stop() {
        lock.holding {
            state.stopping = true
            lock.wakeAll()
        }
    }

    private func run(yieldingTo writer: GroupCommit?) {
        while true {
            lock.acquire()
            while state.ranges.isEmpty, !state.stopping { lock.wait() }
            if state.stopping {
                lock.release()
                return
            }
            let ranges = state.ranges
            let through = state.through
            state.ranges = []
            lock.release()

            for range in ranges { count(range, yieldingTo: writer) }
            let summary = state.reader.summary
            lock.holding { state.progress = Progress(summary: summary, countedThrough: through) }
            wake.wake()
        }
    }

    /// Reads `range` back in slices of whole lines and counts them, each once the writer is idle.
    private func count(_ range: PostbackStore.StoredRange, yieldingTo writer: GroupCommit?) {
        let descriptor = open(range.path, O_RDONLY)
        guard descriptor >= 0 else {
            StandardError.write(
                "skanc serve: error: cannot read \(range.path) back to count it (\(PostbackStore.reason()))")
            return
        }
        defer { close(descriptor) }
        var offset = range.start
        var chunk = chunkBytes
        while offset < range.end {
            writer?.waitUntilIdle()
            if lock.holding({ state.stopping }) { return }
            let wanted = min(chunk, range.end - offset)
            var bytes = [UInt8](repeating: 0, count: wanted)
            let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, wanted, off_t(offset)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                StandardError.write(
                    "skanc serve: error: cannot read \(range.path) back to count it (\(PostbackStore.reason()))")
                return
            }
            // Whole lines only: a chunk that ends inside one (not the range's end) is cut after its last line
            // break, or read again larger when it holds none.
            var cut = count
            if offset + count < range.end {
                guard let lineBreak = bytes[..<count].lastIndex(of: 10) else {
                    chunk *= 2
                    continue
                }
                cut = lineBreak + 1
            }
            bytes.removeLast(bytes.count - cut)
            var input = ByteArrayInput(bytes)
            try? state.reader.read(&input, name: range.path)
            offset += bytes.count
            chunk = chunkBytes
        }
    }
}

/// Rows decoded for counting only.
final class DiscardedLines: PostbackOutput {
    func write<Bytes: Collection<UInt8>>(_ bytes: Bytes) {}
}
