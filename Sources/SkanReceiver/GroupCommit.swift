import SkanFiles
import SkanPostbacks

/// Makes postbacks durable on a thread of its own, so that the poll loop goes on reading while a batch is
/// written and fsync'ed. The batches handed over during one fsync are written together by the next (group
/// commit: the busier the receiver, the more postbacks share an fsync); each is reported done only after the
/// fsync that covers it returned, and a durable batch goes on to the counter.
final class GroupCommit: Sendable {
    /// What became of a batch handed over.
    struct Outcome {
        var ticket: Int
        var durable: Bool
        /// How long the write and fsync took, on the first batch of each group (one fsync, one sample).
        var syncSeconds: Double?
        /// Whether it went to the development store (never counted or forwarded).
        var development = false
    }

    private let store: PostbackStore
    /// Where postbacks that name a development key go, apart from the production store; nil when they are kept
    /// with the rest (`ReceiverConfiguration.keepsDevelopmentApart`).
    private let developmentStore: PostbackStore?
    private let counter: IntakeCounter
    /// The destinations each durable batch is forwarded to.
    private let outboxes: [Outbox]
    private let wake: WakePipe
    private let lock = ConditionLock()
    private let state = Guarded()

    /// What the loop and the writer share; touched only with `lock` held.
    private final class Guarded: @unchecked Sendable {
        var waiting: [(ticket: Int, bodies: [[UInt8]], development: Bool)] = []
        var done: [Outcome] = []
        var nextTicket = 0
        /// Batches taken and not yet reported done.
        var writing = false
        var stopping = false
        var stopped = false
        /// When a batch was last handed over or finished, on `Clock.now()`.
        var lastActivity = Clock.now()
        /// The writer waits for a batch; the counter waits in `waitUntilIdle()`. Each is woken only when what
        /// it waits for may have happened: a broadcast per batch would wake the counter thousands of times a
        /// second under load, taking turns on the cores from the loop and the writer.
        var writerWaits = false
        var idleWaiters = 0
        /// The reason the last write failed, while writes fail (a failure episode), and how many batches failed
        /// in it; nil once a batch or a probe succeeds.
        var failure: String?
        var failedBatches = 0
    }

    /// Why writes fail now, or nil: `/healthz` says unhealthy while they do.
    var failure: String? { lock.holding { state.failure } }

    init(
        store: PostbackStore, developmentStore: PostbackStore? = nil, counter: IntakeCounter, outboxes: [Outbox] = [],
        wake: WakePipe
    ) {
        self.store = store
        self.developmentStore = developmentStore
        self.counter = counter
        self.outboxes = outboxes
        self.wake = wake
        OwnThread.start { [self] in run() }
    }

    /// Hands a batch (each body one line) to the writer, for the development store when `development`; its ticket
    /// names it in `finished()`.
    func submit(_ bodies: [[UInt8]], development: Bool = false) -> Int {
        lock.holding {
            state.nextTicket += 1
            state.waiting.append((state.nextTicket, bodies, development && developmentStore != nil))
            state.lastActivity = Clock.now()
            if state.writerWaits { lock.wakeAll() }
            return state.nextTicket
        }
    }

    /// The batches done since the last call, in the order they were handed over.
    func finished() -> [Outcome] {
        lock.holding {
            defer { state.done = [] }
            return state.done
        }
    }

    /// Returns once nothing waits to be written and nothing is being written: the counter counts in those gaps,
    /// so that it never competes with acknowledging.
    func waitUntilIdle() {
        lock.holding {
            state.idleWaiters += 1
            while !state.waiting.isEmpty || state.writing, !state.stopped { lock.wait() }
            state.idleWaiters -= 1
        }
    }

    /// How long nothing has been handed over or written (0 while something is): how the counter tells a pause
    /// in a burst from its end.
    func quietSeconds() -> Double {
        lock.holding {
            state.waiting.isEmpty && !state.writing ? Clock.now() - state.lastActivity : 0
        }
    }

    /// Writes what is waiting, then ends the thread; returns once it has.
    func stop() {
        lock.holding {
            state.stopping = true
            lock.wakeAll()
            while !state.stopped { lock.wait() }
        }
    }

    /// Ends a failure episode (the lock held): says so once, with how many batches were answered 503.
    private func endFailure(afterProbe: Bool) {
        StandardError.write(
            "skanc serve: writes succeed again\(afterProbe ? " (a probe write)" : ""); "
                + "\(state.failedBatches) batches were answered 503 meanwhile")
        state.failure = nil
        state.failedBatches = 0
    }

    /// A write and fsync of a small file in the store, the lock released meanwhile: true when it succeeded.
    private func probeAfterFailure() -> Bool? {
        lock.release()
        let succeeded = store.probe()
        lock.acquire()
        return succeeded ? true : nil
    }

    private func run() {
        while true {
            lock.acquire()
            while state.waiting.isEmpty, !state.stopping {
                state.writerWaits = true
                // While writes fail and nothing arrives (a load balancer stopped sending), a probe each second
                // tells when the store takes writes again.
                if state.failure != nil {
                    lock.wait(seconds: 1)
                    if state.waiting.isEmpty, !state.stopping, let recovered = probeAfterFailure() {
                        endFailure(afterProbe: recovered)
                    }
                } else {
                    lock.wait()
                }
                state.writerWaits = false
            }
            guard !state.waiting.isEmpty else {
                state.stopped = true
                lock.wakeAll()
                lock.release()
                return
            }
            let taken = state.waiting
            state.waiting = []
            state.writing = true
            lock.release()

            let started = Clock.now()
            var stored: PostbackStore.StoredRange?
            var durable = true
            var failure: String?
            let production = taken.filter { !$0.development }
            let bodies = production.flatMap(\.bodies)
            let receivedAt = Clock.epochSeconds()
            do {
                stored = try store.append(bodies, receivedAt: receivedAt)
            } catch {
                durable = false
                failure = error.description
            }
            let developmentDurable = appendDevelopment(taken, receivedAt: receivedAt, failure: &failure)
            let seconds = Clock.now() - started
            if let stored, let last = production.last {
                counter.add(stored, through: last.ticket)
                for outbox in outboxes { outbox.add(stored, lines: bodies.count, receivedAt: receivedAt) }
            }
            lock.holding {
                // One message per failure episode, not one per batch: a full disk under load would otherwise
                // write thousands of lines a second.
                if let failure {
                    if state.failure == nil {
                        StandardError.write(
                            "skanc serve: error: \(failure); answered 503 (the senders will retry) until writes succeed"
                                + " again; /healthz says unhealthy meanwhile")
                    }
                    state.failure = failure
                    state.failedBatches += taken.count
                } else if state.failure != nil {
                    endFailure(afterProbe: false)
                }
                for (index, batch) in taken.enumerated() {
                    state.done.append(
                        Outcome(
                            ticket: batch.ticket, durable: batch.development ? developmentDurable : durable,
                            syncSeconds: index == 0 ? seconds : nil, development: batch.development))
                }
                state.writing = false
                state.lastActivity = Clock.now()
                if state.waiting.isEmpty, state.idleWaiters > 0 { lock.wakeAll() }
            }
            wake.wake()
        }
    }

    /// Appends the development batches among `taken` to the development store; whether they are durable.
    private func appendDevelopment(
        _ taken: [(ticket: Int, bodies: [[UInt8]], development: Bool)], receivedAt: Int, failure: inout String?
    ) -> Bool {
        let bodies = taken.filter(\.development).flatMap(\.bodies)
        guard let developmentStore, !bodies.isEmpty else { return true }
        do {
            try developmentStore.append(bodies, receivedAt: receivedAt)
            return true
        } catch {
            failure = failure ?? error.description
            return false
        }
    }
}
