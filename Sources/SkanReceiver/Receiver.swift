import SkanCore
import SkanFiles
import SkanHTTP
import SkanPostbacks
import SkanSchema

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `skanc serve`: receives postbacks where Apple sends them and answers 200 only once each is durable.
///
/// Three threads. The loop polls every socket (1,000 keep-alive connections need no 1,000 threads): each turn
/// reads what arrived, parses requests, and hands the postbacks of that turn to the writer as one batch. The
/// writer (`GroupCommit`) appends and fsyncs while the loop goes on reading, writing together the batches that
/// came during its last fsync; only once a batch's fsync returned does the loop queue its 200s, and a batch that
/// cannot be made durable is answered 503, so the device sends it again. The counter (`IntakeCounter`) then
/// decodes and verifies what became durable for `/metrics`, off the path of every answer.
package final class Receiver {
    package let configuration: ReceiverConfiguration
    /// `HOST:PORT` of the public listener and, when separate, the admin one.
    package var publicAddress: String { listeners[0].listener.address }
    package var adminAddress: String? { listeners.count > 1 ? listeners[1].listener.address : nil }

    let store: PostbackStore
    /// `DATA/development`: postbacks that name one of Apple's development keys, kept apart from production
    /// (never counted or forwarded) unless the configuration treats them as production.
    let developmentStore: PostbackStore?
    let counter: IntakeCounter
    /// Verifies first what is past its quota of failed signatures; nil without verification or quota.
    let gate: VerifyGate?
    /// The gates as of this turn, and the postbacks the gate is verifying, by ticket.
    var gates = UnverifiedQuota.Gates()
    var gated: [Int: (connection: Connection, line: [UInt8], framework: String, development: Bool)] = [:]
    var nextGateTicket = 0
    /// Counts stored postbacks, to pick the gate's samples.
    var sampleTurn = 0
    /// One per `--forward` destination.
    let outboxes: [Outbox]
    let committer: GroupCommit
    private let wake: WakePipe
    /// Written by `stop()`, from any thread.
    private let stopRequest: WakePipe
    var metrics = ReceiverMetrics()
    private var listeners: [(listener: Listener, isAdmin: Bool)] = []
    var connections: [Int32: Connection] = [:]
    /// Connections open on the admin listener (the rest are public): each side has its own budget.
    var adminConnections = 0
    var clientLimits: ClientLimits
    /// Tells postbacks from other bodies, on the loop thread (a pass over the bytes, no signature).
    var shapeCheck = PostbackShapeCheck()
    /// The postbacks of this turn, to be handed to the writer as one batch.
    var batch: [(connection: Connection, body: [UInt8], framework: String, development: Bool)] = []
    /// Batches handed to the writer, by ticket: whom to answer once each is durable.
    var inFlight: [Int: [(connection: Connection, bytes: Int, framework: String)]] = [:]
    /// The newest batch known durable: `/metrics` waits until the counter has counted through it.
    var durableThrough = 0
    /// `/metrics` requests waiting for the counter, answered when it has caught up or at their deadline.
    var waitingForCounts: [WaitingForCounts] = []
    /// Accepting pauses briefly after the process runs out of descriptors (EMFILE), instead of spinning.
    var acceptPausedUntil = 0.0
    /// Where `recv` puts what arrived, reused: allocating and zeroing 64 KiB per read cost more than parsing.
    var receiveBuffer = [UInt8](repeating: 0, count: 64 * 1024)
    private var stopping = false

    /// Opens the store (moving torn lines to `rejects/`; `recovered` lists them) and the listeners.
    package init(_ configuration: ReceiverConfiguration) throws(ReceiverFailure) {
        self.configuration = configuration
        clientLimits = ClientLimits(configuration.clientLimits)
        do {
            store = try PostbackStore(directory: configuration.data, instance: configuration.instance)
            recovered = try store.recover()
            if configuration.keepsDevelopmentApart {
                let development = try PostbackStore(
                    directory: configuration.data + "/development", instance: configuration.instance)
                recovered += try development.recover()
                developmentStore = development
            } else {
                developmentStore = nil
            }
        } catch {
            throw ReceiverFailure(.store, error.description)
        }
        try Self.checkDescriptorLimit(configuration)
        do {
            listeners.append((try Listener(configuration.listen), false))
            if let admin = configuration.adminListen { listeners.append((try Listener(admin), true)) }
        } catch {
            throw ReceiverFailure(
                .address,
                error.description + "; choose another address, or stop what holds it (port 0 picks a free one)")
        }
        wake = try WakePipe()
        stopRequest = try WakePipe()
        counter = IntakeCounter(
            catalog: configuration.catalog ?? SchemaCatalog(Self.anyValue), verification: configuration.verification,
            groups: configuration.catalog != nil, quota: configuration.unverifiedQuota, wake: wake)
        if let verification = configuration.verification,
            configuration.unverifiedQuota != nil || configuration.keepsDevelopmentApart
        {
            gate = VerifyGate(verification: verification, quota: configuration.unverifiedQuota, wake: wake)
        } else {
            gate = nil
        }
        counter.addStored(store.recoveredSegments)
        metrics.storedAtStart = store.recoveredSegments.reduce(0) { $0 + $1.lines }
        do {
            let store = store
            outboxes = try configuration.forwards.map { destination throws(PostbackStore.Failure) in
                try Outbox(
                    destination, store: store, verification: configuration.verification,
                    forwardsDevelopment: configuration.forwardsDevelopment, timeout: configuration.forwardTimeout)
            }
        } catch {
            throw ReceiverFailure(.store, error.description)
        }
        committer = GroupCommit(
            store: store, developmentStore: developmentStore, counter: counter, outboxes: outboxes, wake: wake)
        counter.start(yieldingTo: committer)
        for outbox in outboxes { outbox.start() }
    }

    /// Files named like segments that are not regular files (a FIFO), left alone at start.
    package var skippedFiles: [String] { store.skippedFiles }

    /// Torn last lines found in the store at start, moved to `rejects/`.
    package private(set) var recovered: [PostbackStore.TornTail] = []

    /// Without `--schema`, every fine value is valid: the statuses are those of the postback, not a schema's.
    static let anyValue: LiveVersions = {
        let flags = (0..<6).map { bit in
            Field(
                name: "bit\(bit)", kind: .flag, bits: BitRange(bit, bit), description: nil,
                cases: [
                    FieldCase(name: "false", code: 0, description: nil, bucket: nil),
                    FieldCase(name: "true", code: 1, description: nil, bucket: nil),
                ])
        }
        let otherwise = CoarseRule(
            value: .low, condition: .always, location: SourceLocation(line: 1, column: 1, offset: 0),
            text: "otherwise")
        let schema = Schema(
            name: "AnyValue", version: 1, fields: flags, reservedBits: [], unusedBits: [],
            coarseRulesByWindow: PerWindow { _ in [otherwise] }, lockByWindow: PerWindow { _ in nil })
        return LiveVersions([schema])
    }()

    /// The pipe SIGTERM and SIGINT write to, once their handlers are installed.
    private var signalPipe: WakePipe?

    /// Makes SIGTERM and SIGINT stop the receiver gracefully from now on: call it before saying the receiver
    /// listens, so that a signal sent the moment it says so ends it with exit 0, not by the default action.
    package func installSignalHandlers() {
        do {
            signalPipe = try StopSignal.install()
        } catch {
            StandardError.write("skanc serve: warning: \(error.description); SIGTERM and SIGINT end it at once")
        }
    }

    /// Serves until SIGTERM or SIGINT (when `handlingSignals`) or `stop()`: then it stops accepting, answers
    /// what is in flight (for at most five seconds), and returns nil. Returns why when it cannot go on (`poll`
    /// itself fails), after answering what is in flight as well as it can.
    @discardableResult
    package func run(handlingSignals: Bool = true) -> ReceiverFailure? {
        var failure: ReceiverFailure?
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
        if handlingSignals, signalPipe == nil { installSignalHandlers() }
        let signals = signalPipe ?? stopRequest
        var stopDeadline = Double.infinity
        while true {
            let now = Clock.now()
            if stopping, connections.isEmpty || now >= stopDeadline { break }
            var descriptors: [pollfd] = [
                pollfd(fd: signals.readEnd, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wake.readEnd, events: Int16(POLLIN), revents: 0),
                pollfd(fd: stopRequest.readEnd, events: Int16(POLLIN), revents: 0),
            ]
            let firstListener = descriptors.count
            let accepting = !stopping && now >= acceptPausedUntil
            // A listener whose budget is spent is not polled: its clients wait in the backlog.
            var polledListeners: [(listener: Listener, isAdmin: Bool)] = []
            if accepting {
                for entry in listeners where hasRoom(admin: entry.isAdmin) {
                    descriptors.append(pollfd(fd: entry.listener.descriptor, events: Int16(POLLIN), revents: 0))
                    polledListeners.append(entry)
                }
            }
            let firstConnection = descriptors.count
            let open = Array(connections.values)
            for connection in open {
                var events: Int16 = 0
                if connection.lingering || connection.readsRequests {
                    events |= Int16(POLLIN)
                }
                if connection.hasOutput { events |= Int16(POLLOUT) }
                descriptors.append(pollfd(fd: connection.descriptor, events: events, revents: 0))
            }
            let nextDeadline = min(
                open.map(\.deadline).min() ?? (now + 1), waitingForCounts.map(\.deadline).min() ?? (now + 1))
            var wait = max(0, min(nextDeadline, now + 1, stopDeadline) - now)
            if !accepting, !stopping, acceptPausedUntil > now { wait = min(wait, acceptPausedUntil - now) }
            let ready = poll(&descriptors, nfds_t(descriptors.count), Int32((wait * 1000).rounded(.up)))
            if ready < 0, errno != EINTR {
                failure = ReceiverFailure(.loop, "poll failed (\(systemReason())); stopped serving")
                break
            }
            if descriptors[0].revents != 0 || descriptors[2].revents != 0 {
                signals.drain()
                stopRequest.drain()
                if !stopping {
                    stopping = true
                    stopDeadline = Clock.now() + 5
                    for entry in listeners { close(entry.listener.descriptor) }
                    for connection in connections.values where !connection.parser.hasPartialRequest {
                        connection.closing = true
                    }
                }
            }
            // Durable batches first: their clients send their next requests while this turn reads.
            if descriptors[1].revents != 0 {
                wake.drain()
                answerDurable(committer.finished())
                if let gate { answerGated(gate.finished()) }
                gates = gate.map { counter.gates.union($0.gates) } ?? gates
            }
            if accepting {
                for (index, entry) in polledListeners.enumerated() where descriptors[firstListener + index].revents != 0
                {
                    acceptConnections(on: entry.listener, isAdmin: entry.isAdmin)
                }
            }
            // A connection closed earlier in this turn is skipped: its descriptor may already name a new one.
            for (offset, connection) in open.enumerated() where connections[connection.descriptor] === connection {
                let revents = descriptors[firstConnection + offset].revents
                if revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 { receive(connection) }
            }
            handOver()
            answerMetricsCounted(now: Clock.now())
            let time = Clock.now()
            for connection in Array(connections.values) {
                if !connection.awaitingAnswer, !connection.hasOutput, time >= connection.deadline {
                    expire(connection)
                }
                flush(connection)
            }
        }
        handOver()
        committer.stop()
        answerDurable(committer.finished())
        counter.stop()
        gate?.stop()
        for outbox in outboxes { outbox.stop() }
        for connection in Array(connections.values) { drop(connection) }
        return failure
    }

    /// Asks `run()` to stop as SIGTERM does; safe from any thread (it writes a byte to a pipe).
    package func stop() {
        stopRequest.wake()
    }

}
