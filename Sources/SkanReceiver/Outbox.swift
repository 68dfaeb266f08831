import SkanCore
import SkanFiles
import SkanPostbacks

/// Sends every postback this receiver stores on to one destination, byte for byte, to the path Apple posted it
/// to, at least once: from the segments themselves (what waits is byte ranges, so an hour's outage costs no
/// memory), in the order stored, on a thread of its own (never on the path of an acknowledgement), with
/// exponential backoff and jitter while the destination fails. `OutboxCursor` keeps its place across restarts.
///
/// A 2xx answer is delivery; 408, 429, 5xx, a reset or a timeout are tried again (the same postback, so order
/// holds); any other 4xx is the destination refusing that postback for good: counted, said, and passed. A
/// postback signed with Apple's development keys is not forwarded unless asked (`--forward-development`); one
/// of another ad network than the destination's filter names is not for it.
final class Outbox: @unchecked Sendable {
    /// What forwarding came to, for `/metrics`.
    struct Figures: Equatable {
        var sent = 0
        /// Attempts that failed (no answer, or one to try again), and attempts after a postback's first.
        var failedAttempts = 0
        var retries = 0
        /// Postbacks the destination refused for good (a 4xx other than 408 and 429).
        var rejected = 0
        /// Not sent: development, another ad network, not a postback (a store written before the shape check).
        var skipped: [String: Int] = [:]
        /// Postbacks sent again after a restart that may have arrived before it (the one in flight at a kill).
        var resent = 0
        /// Stored and not yet forwarded, and the receipt time of the oldest of them.
        var waiting = 0
        var oldestWaiting: Int?
    }

    let destination: ForwardDestination
    let postbacksFolder: String
    let lock = ConditionLock()
    let state: Guarded
    let cursorFile: OutboxCursorFile

    /// A range of a segment to forward, its line count and when its first line was received.
    struct Pending {
        var range: PostbackStore.StoredRange
        var lines: Int
        var receivedAt: Int
    }

    /// What the writer, the loop and the forwarding thread share; touched with `lock` held, except `worker`.
    final class Guarded: @unchecked Sendable {
        var pending: [Pending] = []
        var figures = Figures()
        var stopping = false
        var stopped = false
        var worker: Worker

        init(worker: Worker) { self.worker = worker }
    }

    /// What only the forwarding thread touches.
    struct Worker {
        var cursor: OutboxCursor
        var check: PostbackShapeCheck
        let client: ForwardClient
        var random: SplitMix64
        /// The reason of the failure episode under way, and its failed attempts.
        var failing: String?
        var failedInEpisode = 0
    }

    /// An outbox for `destination` over `store`, resuming where its cursor says (a new destination starts with
    /// what is stored from now on).
    init(
        _ destination: ForwardDestination, store: PostbackStore, verification: PostbackVerification?,
        forwardsDevelopment: Bool, timeout: Double = 10
    ) throws(PostbackStore.Failure) {
        self.destination = destination
        let postbacksFolder = store.directory + "/postbacks/"
        self.postbacksFolder = postbacksFolder
        try DurableFiles.makeDirectory(store.directory + "/outbox")
        let cursorFile = try OutboxCursorFile(
            path: store.directory + "/outbox/\(store.instance)-\(destination.name).cursor")
        let own = store.recoveredSegments.compactMap { segment -> (SegmentName, PostbackStore.StoredSegment)? in
            guard let name = SegmentName(String(segment.path.split(separator: "/").last ?? "")),
                name.instance == store.instance
            else { return nil }
            return (name, segment)
        }
        .sorted { ($0.0.opened, $0.0.number) < ($1.0.opened, $1.0.number) }
        var figures = Figures()
        var pending: [Pending] = []
        let cursor: OutboxCursor
        if let saved = cursorFile.read() {
            cursor = saved
            if saved.sendingThrough > saved.sentThrough { figures.resent = 1 }
            let savedName = SegmentName(String(saved.segment.split(separator: "/").last ?? ""))
            for (name, segment) in own {
                let relative = String(segment.path.dropFirst(postbacksFolder.count))
                var start = 0
                if relative == saved.segment {
                    start = saved.sentThrough
                } else if let savedName, (name.opened, name.number) <= (savedName.opened, savedName.number) {
                    continue
                }
                guard start < segment.bytes else { continue }
                let range = PostbackStore.StoredRange(path: segment.path, start: start, end: segment.bytes)
                let lines = start == 0 ? segment.lines : Self.lineCount(range)
                pending.append(Pending(range: range, lines: lines, receivedAt: name.opened))
            }
        } else {
            let last = own.last.map { String($0.1.path.dropFirst(postbacksFolder.count)) } ?? ""
            let end = own.last?.1.bytes ?? 0
            cursor = OutboxCursor(segment: last, sentThrough: end, sendingThrough: end)
            cursorFile.write(cursor, sync: true)
        }
        figures.waiting = pending.reduce(0) { $0 + $1.lines }
        figures.oldestWaiting = pending.first?.receivedAt
        let worker = Worker(
            cursor: cursor, check: PostbackShapeCheck(verification: verification),
            client: ForwardClient(destination, timeout: timeout),
            random: SplitMix64(seed: UInt64(Clock.epochSeconds()) ^ 0x5eed),
            failing: nil)
        state = Guarded(worker: worker)
        state.pending = pending
        state.figures = figures
        self.cursorFile = cursorFile
        self.forwardsDevelopment = forwardsDevelopment
    }

    let forwardsDevelopment: Bool

    private static func lineCount(_ range: PostbackStore.StoredRange) -> Int {
        var counted = 0
        var next = range
        while next.start < next.end, let bytes = PostbackStore.wholeLines(of: next, about: 1 << 20, for: "forward") {
            counted += bytes.count { $0 == 10 }
            next.start += bytes.count
        }
        return counted
    }

    var figures: Figures { lock.holding { state.figures } }

    /// Starts forwarding on a thread of its own.
    func start() {
        OwnThread.start { [self] in run() }
    }

    /// A durable batch of `lines` postbacks received at `receivedAt`, to forward.
    func add(_ range: PostbackStore.StoredRange, lines: Int, receivedAt: Int) {
        lock.holding {
            if let last = state.pending.last, last.range.path == range.path, last.range.end == range.start {
                state.pending[state.pending.count - 1].range.end = range.end
                state.pending[state.pending.count - 1].lines += lines
            } else {
                state.pending.append(Pending(range: range, lines: lines, receivedAt: receivedAt))
            }
            state.figures.waiting += lines
            if state.figures.oldestWaiting == nil { state.figures.oldestWaiting = receivedAt }
            lock.wakeAll()
        }
    }

    /// Ends forwarding after the attempt under way (waiting for it at most `seconds`); the cursor says where.
    func stop(waiting seconds: Double = 2) {
        lock.holding {
            state.stopping = true
            lock.wakeAll()
            let deadline = Clock.now() + seconds
            while !state.stopped, Clock.now() < deadline { lock.wait(seconds: deadline - Clock.now()) }
        }
    }
}
