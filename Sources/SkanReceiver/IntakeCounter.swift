import SkanPostbacks
import SkanSchema

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What the stored postbacks came to, through the engine `skanc postbacks` runs, off the poll loop so that
/// verifying signatures never delays an acknowledgement. It reads each durable batch back from the segment it
/// went to, exactly the bytes `skanc postbacks` would read there, and decodes them as lines of a file
/// (statuses, signatures, duplicates across everything stored since start), a slice of about 64 KiB at a time.
///
/// Counting runs on a thread of its own at the normal priority, so other work on a busy machine cannot starve it
/// for good (a thread at nice 19 gets about 1.5% of a core beside one busy process, which is how an earlier
/// version fell minutes behind). During a burst it counts only in the writer's idle moments and rests 19
/// times as long as it counted, so it takes at most a twentieth of a core from acknowledging; once the writer
/// has been quiet for `catchUpAfter` it counts at full speed. Receiver benchmark (`wrk -c 64`), alternating
/// runs, five each, medians: 54,619 requests/s resting 9x against 57,290 resting 19x, and 58,308 with no
/// counting during the burst at all; earlier, three runs each: 48,259-53,312 resting 9x, 45,584-46,159
/// resting 3x, 45,129-47,210 with a nice-19 thread. What waits is a list of byte ranges, adjacent ones joined,
/// so falling behind holds no postback in memory.
final class IntakeCounter: Sendable {
    /// Where counting stands: the counts so far, and the newest batch (by ticket) they include.
    struct Progress {
        var summary: PostbackSummary
        /// The `ok` rows per campaign and window, when the counter groups (the receiver has a schema): what
        /// `/report` is made of, without reading the store again.
        var tally: PostbackTally?
        var countedThrough: Int
        /// Whether what the store held at start has been counted (see `addStored`).
        var countedStore: Bool
        /// Whom to verify before storing (`UnverifiedQuota`).
        var gates = UnverifiedQuota.Gates()
        /// Stored bytes that could not be read back, and the segments they lie in: not in the counts, and said
        /// so wherever the counts are shown.
        var unreadableBytes = 0
        var unreadableSegments: Set<String> = []
    }

    /// Stored bytes not yet counted, and the newest batch they end with.
    struct Pending: Equatable {
        var range: PostbackStore.StoredRange
        var through: Int
    }

    /// How long the writer must have been quiet for counting to go at full speed.
    static let catchUpAfter = 0.05

    /// During a burst, how long counting rests for each second it counted.
    static let restPerBusySecond = 19.0

    private let wake: WakePipe
    private let lock = ConditionLock()
    private let state: Guarded
    private let chunkBytes: Int

    /// What the writer, the loop and the counting thread share; touched only with `lock` held, except
    /// `reader`, which only the counting thread uses.
    private final class Guarded: @unchecked Sendable {
        let reader: PostbackReader
        /// What the reader tells of failed signatures; nil without a quota. Counting thread only.
        let failures: SignatureFailures?
        var pending: [Pending] = []
        var progress: Progress
        var stopping = false
        /// The counting thread waits for work: only then does a batch added wake it (during a burst it rests
        /// on a timer instead, so the writer's batches do not wake it thousands of times a second).
        var waitsForWork = false

        init(reader: PostbackReader, failures: SignatureFailures?) {
            self.reader = reader
            self.failures = failures
            progress = Progress(summary: reader.summary, tally: reader.tally, countedThrough: 0, countedStore: true)
        }
    }

    /// A counter whose threads `start` starts; `chunkBytes` is the slice read and counted at a time (more when
    /// one line is longer).
    convenience init(
        versions: LiveVersions, verification: PostbackVerification?, groups: Bool = false,
        quota: UnverifiedQuota.Settings? = nil, wake: WakePipe, chunkBytes: Int = 64 << 10
    ) {
        self.init(
            catalog: SchemaCatalog(versions), verification: verification, groups: groups, quota: quota, wake: wake,
            chunkBytes: chunkBytes)
    }

    /// The same over the apps of `catalog`: where it routes by app, the groups are per app first.
    init(
        catalog: SchemaCatalog, verification: PostbackVerification?, groups: Bool = false,
        quota: UnverifiedQuota.Settings? = nil, wake: WakePipe, chunkBytes: Int = 64 << 10
    ) {
        // With a quota, the reader says who each postback is about and what its signature came to.
        let failures = quota.flatMap { settings in
            verification.map { SignatureFailures(settings, allowsDevelopment: $0.allowDevelopment) }
        }
        let options = PostbackReader.Options {
            $0.threads = 1
            $0.writesRows = false
            $0.verification = verification
            if let failures { $0.senders = { sender in failures.observe(sender) } }
            if groups {
                $0.grouping = PostbackReader.Grouping(
                    groupings: (catalog.routesByApp ? [.appID] : []) + PostbackGrouping.defaults)
            }
        }
        let reader = PostbackReader(catalog: catalog, options: options, output: DiscardedLines())
        state = Guarded(reader: reader, failures: failures)
        self.wake = wake
        self.chunkBytes = chunkBytes
    }

    /// Starts counting: at once when `writer` is quiet (or absent), in its idle moments and at a bounded share of
    /// a core during a burst.
    func start(yieldingTo writer: GroupCommit?) {
        OwnThread.start { [self] in run(yieldingTo: writer) }
    }

    /// A durable batch to count; `ticket` is the newest batch it holds.
    func add(_ range: PostbackStore.StoredRange, through ticket: Int) {
        lock.holding {
            Self.join(Pending(range: range, through: ticket), into: &state.pending)
            if state.waitsForWork { lock.wakeAll() }
        }
    }

    /// What the store held at start, to count before anything received: so that statuses (duplicates above
    /// all) and `/report` cover the whole store, as `skanc postbacks` over its segments does. Ticket 0 marks
    /// these ranges (batches are numbered from 1).
    func addStored(_ segments: [PostbackStore.StoredSegment]) {
        lock.holding {
            for segment in segments where segment.bytes > 0 {
                let range = PostbackStore.StoredRange(path: segment.path, start: 0, end: segment.bytes)
                state.pending.append(Pending(range: range, through: 0))
                state.progress.countedStore = false
            }
            if state.waitsForWork { lock.wakeAll() }
        }
    }

    /// Adds `next` to what waits, joined to the last range when it continues it.
    static func join(_ next: Pending, into pending: inout [Pending]) {
        if let last = pending.last, last.range.path == next.range.path, last.range.end == next.range.start {
            pending[pending.count - 1].range.end = next.range.end
            pending[pending.count - 1].through = next.through
        } else {
            pending.append(next)
        }
    }

    var progress: Progress { lock.holding { state.progress } }

    /// Whom to verify before storing, as of the last slice counted.
    var gates: UnverifiedQuota.Gates { lock.holding { state.progress.gates } }

    /// Ends the threads after the slice being counted (what else waits is left: the process is ending).
    func stop() {
        lock.holding {
            state.stopping = true
            lock.wakeAll()
        }
    }

    /// Returns once there is something to count (true) or the counter stops (false).
    private func waitForWork() -> Bool {
        lock.holding {
            while state.pending.isEmpty, !state.stopping {
                state.waitsForWork = true
                lock.wait()
                state.waitsForWork = false
            }
            return !state.stopping
        }
    }

    private func run(yieldingTo writer: GroupCommit?) {
        while waitForWork() {
            guard let writer, writer.quietSeconds() < Self.catchUpAfter else {
                countSlice()
                continue
            }
            writer.waitUntilIdle()
            let started = Clock.now()
            countSlice()
            let resumeAt = Clock.now() + (Clock.now() - started) * Self.restPerBusySecond
            // The rest ends early when the burst does: it is looked at every `catchUpAfter`.
            while Clock.now() < resumeAt, writer.quietSeconds() < Self.catchUpAfter {
                let stopping = lock.holding {
                    if !state.stopping { lock.wait(seconds: min(resumeAt - Clock.now(), Self.catchUpAfter)) }
                    return state.stopping
                }
                if stopping { return }
            }
        }
    }

    /// Counts the whole lines at the start of the first pending range, up to about `chunkBytes`.
    private func countSlice() {
        guard let first = lock.holding({ state.stopping ? nil : state.pending.first }) else { return }
        let consumed: Int
        var unreadable = false
        // What the store held at start (ticket 0) is not this hour's intake: it counts against no quota.
        state.failures?.countsAgainstQuota = first.through != 0
        if let bytes = PostbackStore.wholeLines(of: first.range, about: chunkBytes, for: "count") {
            var input = ByteArrayInput(bytes)
            try? state.reader.read(&input, name: first.range.path)
            consumed = bytes.count
        } else {
            consumed = first.range.end - first.range.start
            unreadable = true
        }
        let summary = state.reader.summary
        let tally = state.reader.tally
        let gates = state.failures?.quota.gates
        let finished = lock.holding {
            if let gates { state.progress.gates = gates }
            if unreadable {
                state.progress.unreadableBytes += consumed
                state.progress.unreadableSegments.insert(first.range.path)
            }
            // Only this thread removes or shortens the first range; the writer may have lengthened it.
            state.pending[0].range.start += consumed
            state.progress.summary = summary
            state.progress.tally = tally
            guard state.pending[0].range.start >= state.pending[0].range.end else { return false }
            state.progress.countedThrough = max(state.progress.countedThrough, state.pending.removeFirst().through)
            state.progress.countedStore = !state.pending.contains { $0.through == 0 }
            return true
        }
        if finished { wake.wake() }
    }
}

/// Rows decoded for counting only.
final class DiscardedLines: PostbackOutput {
    func write<Bytes: Collection<UInt8>>(_ bytes: Bytes) {}
}
