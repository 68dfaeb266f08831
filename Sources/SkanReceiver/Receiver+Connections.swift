import SkanHTTP

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The connections' life on the loop: accepting within each listener's budget and each client's share, reading
/// and parsing, answering in order, handing postbacks to the writer, timing out, sending and closing.
extension Receiver {
    /// Whether the public listener (or the admin one) may take another connection.
    func hasRoom(admin: Bool) -> Bool {
        admin
            ? adminConnections < configuration.maxAdminConnections
            : connections.count - adminConnections < configuration.maxConnections
    }

    func acceptConnections(on listener: Listener, isAdmin: Bool) {
        while hasRoom(admin: isAdmin) {
            guard let (descriptor, peer) = Socket.accept(on: listener.descriptor) else {
                if errno == EINTR { continue }
                if errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM {
                    acceptPausedUntil = Clock.now() + 0.1
                }
                return
            }
            // Over its share, a client's new connection is closed at once (before any byte is read).
            guard isAdmin || clientLimits.admits(peer) else {
                metrics.refused["too-many-connections", default: 0] += 1
                close(descriptor)
                continue
            }
            Socket.setNonBlocking(descriptor)
            Socket.sendWithoutDelay(descriptor)
            let limits = HTTPRequestParser.Limits(bodyBytes: configuration.maxBody)
            // The first request is timed from accept: a connection that sends nothing holds its slot no longer
            // than a slow request would.
            connections[descriptor] = Connection(
                descriptor: descriptor, isAdmin: isAdmin, peer: peer, limits: limits,
                deadline: Clock.now() + configuration.requestTimeout)
            connections[descriptor]?.peerIsTrusted = clientLimits.isTrustedProxy(peer)
            if isAdmin { adminConnections += 1 }
            metrics.openConnections = connections.count
        }
    }

    /// Reads what arrived and answers the requests now whole; the peer's close ends the connection.
    func receive(_ connection: Connection) {
        let count = receiveBuffer.withUnsafeMutableBytes { recv(connection.descriptor, $0.baseAddress, $0.count, 0) }
        if count < 0, errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK { return }
        if connection.lingering {
            if count <= 0 { drop(connection) }
            return
        }
        guard count > 0 else {
            // The client is gone (or half-closed with nothing more to say): what it still awaits is not sent.
            if !connection.awaitingAnswer { drop(connection) } else { connection.closing = true }
            return
        }
        let wasIdle = !connection.parser.hasPartialRequest
        connection.parser.feed(receiveBuffer[0..<count])
        if wasIdle, !connection.awaitingFirstRequest {
            connection.deadline = Clock.now() + configuration.requestTimeout
        }
        serve(connection)
    }

    /// Answers the connection's whole requests, in order, until one waits for the batch.
    func serve(_ connection: Connection) {
        while connection.readsRequests, let outcome = connection.parser.next() {
            connection.awaitingFirstRequest = false
            switch outcome {
            case .refused(let refusal):
                metrics.refused[refusal.status == .contentTooLarge ? "too-large" : "malformed-request", default: 0] += 1
                answer(
                    connection, route: "other",
                    HTTPResponse(refusal.status, body: refusal.status.reason + "\n", closes: true))
            case .request(let request):
                connection.closesAfterAnswer = !request.keepsAlive
                handle(request, on: connection)
            }
        }
        // A request whose header is in and whose client waits for leave to send the body gets it now.
        if connection.readsRequests, connection.parser.takeContinueRequest() {
            connection.queueRaw(HTTPRequestParser.continueAnswer)
            flush(connection)
        }
        if !connection.parser.hasPartialRequest, !connection.awaitingAnswer, !connection.awaitingFirstRequest {
            connection.deadline = Clock.now() + configuration.idleTimeout
        }
    }

    func answer(_ connection: Connection, route: String, _ response: HTTPResponse, headOnly: Bool = false) {
        answer(connection, route: route, SerializedResponse(response, headOnly: headOnly))
    }

    func answer(_ connection: Connection, route: String, _ response: SerializedResponse) {
        metrics.answered(route: route, status: response.status)
        connection.queue(response)
        flush(connection)
    }

    /// The answers to a postback, the same whatever it verifies to.
    static let stored = SerializedResponse(HTTPResponse(.ok, body: "stored\n"))
    static let notStored = SerializedResponse(HTTPResponse(.serviceUnavailable, body: "not stored; send it again\n"))

    /// Hands this turn's postbacks to the writer as one batch.
    func handOver() {
        guard !batch.isEmpty else { return }
        // Postbacks that name a development key go to their own store, as a batch of their own.
        for development in [false, true] {
            let part = batch.filter { $0.development == development }
            guard !part.isEmpty else { continue }
            let ticket = committer.submit(part.map(\.body), development: development)
            inFlight[ticket] = part.map { ($0.connection, $0.body.count + 1, $0.framework) }
        }
        batch = []
    }

    /// Answers the postbacks of batches the writer is done with: 200 once durable, 503 if not. Then the requests
    /// that came after them on their connections.
    func answerDurable(_ outcomes: [GroupCommit.Outcome]) {
        for outcome in outcomes {
            guard let entries = inFlight.removeValue(forKey: outcome.ticket) else { continue }
            if let seconds = outcome.syncSeconds, outcome.durable { metrics.synced(seconds: seconds) }
            if outcome.durable, !outcome.development { durableThrough = outcome.ticket }
            for entry in entries {
                if outcome.durable, outcome.development {
                    metrics.storedDevelopment += 1
                } else if outcome.durable {
                    metrics.stored[entry.framework, default: 0] += 1
                    metrics.storedBytes += entry.bytes
                }
                entry.connection.awaitingAnswer = false
                answer(entry.connection, route: entry.framework, outcome.durable ? Self.stored : Self.notStored)
            }
            for entry in entries where connections[entry.connection.descriptor] === entry.connection {
                serve(entry.connection)
            }
        }
    }

    func expire(_ connection: Connection) {
        if !connection.lingering, connection.parser.hasPartialRequest {
            metrics.refused["timeout", default: 0] += 1
            answer(connection, route: "other", HTTPResponse(.requestTimeout, body: "Request Timeout\n", closes: true))
        } else {
            drop(connection)
        }
    }

    /// Sends what the socket takes; a connection with nothing left to send that is closing is closed.
    func flush(_ connection: Connection) {
        guard connections[connection.descriptor] === connection else { return }
        if connection.hasOutput {
            guard let written = Socket.write(connection.output[connection.sent...], to: connection.descriptor) else {
                drop(connection)
                return
            }
            connection.sent += written
            // The client read its answers: the requests it pipelined behind them are read again.
            if written > 0, connection.backlog < Connection.backlogLimit / 2, !connection.awaitingAnswer,
                connection.parser.hasPartialRequest
            {
                serve(connection)
            }
        }
        if !connection.hasOutput, connection.closing, !connection.awaitingAnswer, !connection.lingering {
            connection.lingering = true
            connection.deadline = Clock.now() + 2
            if shutdown(connection.descriptor, Int32(SHUT_WR)) != 0 { drop(connection) }
        }
    }

    func drop(_ connection: Connection) {
        guard connections[connection.descriptor] === connection else { return }
        connections[connection.descriptor] = nil
        close(connection.descriptor)
        if connection.isAdmin { adminConnections -= 1 } else { clientLimits.closed(connection.peer) }
        metrics.openConnections = connections.count
    }
}
