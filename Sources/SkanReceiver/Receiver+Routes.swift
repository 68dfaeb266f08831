import SkanCore
import SkanHTTP
import SkanPostbacks
import SkanReports

/// What each path answers. Public: the two report-attribution paths (with and without the trailing slash), and
/// with `--schemas` the published schemas (`SchemaFiles`).
/// Admin (on `--admin-listen`, else on the public port): `/healthz`, `/metrics`, `/report`. Every answer is a
/// fixed text: nothing of the request is reflected.
extension Receiver {
    /// The paths Apple posts to, and the framework each is for.
    static let postbackPaths: [Substring: String] = [
        "/.well-known/skadnetwork/report-attribution/": "skadnetwork",
        "/.well-known/skadnetwork/report-attribution": "skadnetwork",
        "/.well-known/appattribution/report-attribution/": "adattributionkit",
        "/.well-known/appattribution/report-attribution": "adattributionkit",
    ]

    func handle(_ request: HTTPRequest, on connection: Connection) {
        let headOnly = request.method == "HEAD"
        if !connection.isAdmin,
            let client = clientLimits.client(
                of: request, peer: connection.peer, peerIsTrusted: connection.peerIsTrusted),
            !clientLimits.allowsRequest(from: client, now: Clock.now())
        {
            metrics.refused["rate-limited", default: 0] += 1
            answer(connection, route: "other", Self.tooManyRequests)
            return
        }
        if let framework = Self.postbackPaths[request.path] {
            switch request.method {
            case "POST":
                receivePostback(request.body, route: framework, on: connection)
            case "GET", "HEAD":
                answer(
                    connection, route: framework,
                    HTTPResponse(.ok, body: "skanc receives \(framework) postbacks here: POST them\n"),
                    headOnly: headOnly)
            default:
                answer(connection, route: framework, Self.notAllowed("GET, HEAD, POST"))
            }
            return
        }
        if let folder = configuration.schemas, request.path.hasPrefix(SchemaFiles.prefix) {
            guard request.method == "GET" || headOnly else {
                answer(connection, route: "schemas", Self.notAllowed("GET, HEAD"))
                return
            }
            let response = SchemaFiles(root: folder).answer(request.path, ifNoneMatch: request.header("if-none-match"))
            answer(connection, route: "schemas", response, headOnly: headOnly)
            return
        }
        let path = String(request.path)
        guard connection.isAdmin, ["/healthz", "/metrics", "/report"].contains(path) else {
            answer(connection, route: "other", HTTPResponse(.notFound, body: "Not Found\n"), headOnly: headOnly)
            return
        }
        guard request.method == "GET" || headOnly else {
            answer(connection, route: String(path.dropFirst()), Self.notAllowed("GET, HEAD"))
            return
        }
        if let token = configuration.adminToken, !Self.bears(token, request) {
            metrics.refused["unauthorized", default: 0] += 1
            answer(connection, route: String(path.dropFirst()), Self.unauthorized, headOnly: headOnly)
            return
        }
        switch path {
        case "/healthz":
            // Unhealthy while the store cannot take writes, so that a load balancer sends elsewhere.
            if let problem = store.problem() ?? committer.failure {
                answer(
                    connection, route: "healthz",
                    HTTPResponse(.serviceUnavailable, body: "unhealthy: \(problem)\n"), headOnly: headOnly)
            } else {
                answer(connection, route: "healthz", HTTPResponse(.ok, body: "ok\n"), headOnly: headOnly)
            }
        case "/metrics":
            // Answered once the counter has counted everything acknowledged before this request (at once when
            // idle; under a burst it may lag behind), or after `countingWait` with the lag in the metrics.
            waitForCounts(.metrics, on: connection, headOnly: headOnly)
        default:
            guard let catalog = configuration.catalog else {
                answer(connection, route: "report", Self.noReport, headOnly: headOnly)
                return
            }
            guard let format = ReportFormat(rawValue: String(request.queryValue("format") ?? "markdown")),
                !catalog.routesByApp || ManyAppsReport.formats.contains(format)
            else {
                answer(
                    connection, route: "report", catalog.routesByApp ? Self.badManyAppsFormat : Self.badFormat,
                    headOnly: headOnly)
                return
            }
            // Made from the counter's tally (its size is the number of groups, not of postbacks), once it has
            // counted everything acknowledged before the request: never a pass over the store on the loop.
            waitForCounts(.report(format), on: connection, headOnly: headOnly)
        }
    }

    static let unauthorized = HTTPResponse(
        .unauthorized, body: "send Authorization: Bearer <the token of --admin-token>\n")

    /// Whether `request` carries `Authorization: Bearer <token>`; compared in time independent of where the
    /// bytes differ, so that the answer's timing tells nothing of the token.
    static func bears(_ token: [UInt8], _ request: HTTPRequest) -> Bool {
        guard let value = request.header("authorization"), value.utf8.count == token.count + 7,
            value.utf8.prefix(7).map({ $0 | 0x20 }) == Array("bearer ".utf8)
        else { return false }
        var difference: UInt8 = 0
        for (sent, expected) in zip(value.utf8.dropFirst(7), token) { difference |= sent ^ expected }
        return difference == 0
    }

    static let noReport = HTTPResponse(
        .notFound, body: "no report: start skanc serve with --schema, or --schemas DIR of published schemas\n")
    static let badFormat = HTTPResponse(.badRequest, body: "format is html, json, csv or markdown\n")
    static let badManyAppsFormat = HTTPResponse(
        .badRequest,
        body: "a report of many apps is " + ManyAppsReport.formats.map(\.rawValue).joined(separator: ", ")
            + "; one app's is 'skanc report --schemas DIR/APP_ID'\n")

    /// The longest `/metrics` and `/report` wait for the counter to catch up with what was acknowledged before
    /// them: well inside Prometheus's default scrape timeout (10 s), so a scrape during a burst still gets its
    /// answer.
    static let countingWait = 5.0

    private func waitForCounts(_ kind: WaitingForCounts.Kind, on connection: Connection, headOnly: Bool) {
        connection.awaitingAnswer = true
        waitingForCounts.append(
            WaitingForCounts(
                connection: connection, kind: kind, through: durableThrough, headOnly: headOnly,
                deadline: Clock.now() + Self.countingWait))
        answerMetricsCounted(now: Clock.now())
    }

    /// Answers the `/metrics` and `/report` requests whose counts are in (or whose wait is over), then what came
    /// after them. A report whose wait is over before the counter caught up with a burst is what is counted so
    /// far, its `Skanc-Uncounted` header saying how many stored postbacks it leaves out; before the counter has
    /// counted what the store held at start, it is 503 (it would leave out most of the store).
    func answerMetricsCounted(now: Double) {
        guard !waitingForCounts.isEmpty else { return }
        let progress = counter.progress
        func caughtUp(_ entry: WaitingForCounts) -> Bool {
            progress.countedThrough >= entry.through && (entry.kind == .metrics || progress.countedStore)
        }
        let ready = waitingForCounts.filter { caughtUp($0) || now >= $0.deadline }
        guard !ready.isEmpty else { return }
        waitingForCounts.removeAll { caughtUp($0) || now >= $0.deadline }
        var metricsText: String?
        for entry in ready {
            entry.connection.awaitingAnswer = false
            switch entry.kind {
            case .metrics:
                let text =
                    metricsText
                    ?? metrics.text(
                        summary: progress.summary, unreadableBytes: progress.unreadableBytes,
                        store: (store.problem() == nil && committer.failure == nil, store.availableBytes()),
                        forwarding: outboxes.map { ($0.destination.name, $0.figures) })
                metricsText = text
                answer(
                    entry.connection, route: "metrics",
                    HTTPResponse(.ok, contentType: "text/plain; version=0.0.4; charset=utf-8", body: text),
                    headOnly: entry.headOnly)
            case .report(let format):
                let uncounted = progress.countedThrough >= entry.through ? 0 : metrics.uncounted(progress.summary)
                answer(
                    entry.connection, route: "report",
                    progress.countedStore ? report(format, progress, uncounted: uncounted) : Self.stillCounting,
                    headOnly: entry.headOnly)
            }
            if connections[entry.connection.descriptor] === entry.connection { serve(entry.connection) }
        }
    }

    static let stillCounting = HTTPResponse(
        .serviceUnavailable, body: "the counter is still counting the store; ask again shortly\n", retryAfter: 5)

    /// Past a client's rate: it may try again in a second, on a new connection.
    static let tooManyRequests = SerializedResponse(
        HTTPResponse(.tooManyRequests, body: "Too Many Requests\n", closes: true, retryAfter: 1))

    static func notAllowed(_ methods: String) -> HTTPResponse {
        HTTPResponse(.methodNotAllowed, body: "Method Not Allowed\n", allow: methods)
    }

    /// A body shaped like a postback joins this turn's batch; anything else is refused with a 400 that names the
    /// reason's code, and not kept: only what the reader can decode reaches the store (and every engine the
    /// warehouse recipes name reads it), and nothing a stranger sends is written anywhere else.
    private func receivePostback(_ body: [UInt8], route: String, on connection: Connection) {
        switch shapeCheck.check(body) {
        case .refused(let reason):
            metrics.refused[reason, default: 0] += 1
            answer(connection, route: route, Self.refusals[reason] ?? Self.notAPostback)
        case .postback(let sender):
            // A line break in JSON is white space between tokens (a raw one inside a string is not JSON): as a
            // space, the line holds the same value.
            let line = body.contains { $0 == 10 || $0 == 13 } ? body.map { $0 == 10 || $0 == 13 ? 32 : $0 } : body
            connection.awaitingAnswer = true
            let key = UnverifiedQuota.Key(adNetwork: sender.adNetwork, app: sender.app)
            // A postback that names a development key is verified before it is stored apart: the claim costs a
            // stranger nothing, so it must not open a way around the quota.
            let development = sender.claimsDevelopment && configuration.keepsDevelopmentApart
            if let gate, development || gates.applies(to: key) {
                nextGateTicket += 1
                guard gate.submit(nextGateTicket, line, development: development) else {
                    connection.awaitingAnswer = false
                    metrics.refused["verification-queue-full", default: 0] += 1
                    answer(connection, route: route, Self.verifyLater)
                    return
                }
                gated[nextGateTicket] = (connection, line, sender.framework, development)
                return
            }
            batch.append((connection, line, sender.framework, development))
            sampleTurn += 1
            if let gate, sampleTurn % VerifyGate.sampleEvery == 0 { gate.sample(key, line) }
        }
    }

    /// Past the quota, a postback is stored once it verifies; one that does not is answered this, and counted.
    static let verifyLater = SerializedResponse(
        HTTPResponse(.serviceUnavailable, body: "not stored; send it again later\n", retryAfter: 3_600))

    /// Postbacks the gate has verified: on to the batch, or refused.
    func answerGated(_ outcomes: [VerifyGate.Outcome]) {
        for outcome in outcomes {
            guard let entry = gated.removeValue(forKey: outcome.ticket) else { continue }
            if outcome.verifies {
                batch.append((entry.connection, entry.line, entry.framework, entry.development))
                continue
            }
            let reason = entry.development ? "development-unverified" : "unverified-past-quota"
            let refused = metrics.refused[reason, default: 0] + 1
            metrics.refused[reason] = refused
            // Said at 1, 2, 4, 8 ... refusals: the count and the digest of the latest, what is kept of them.
            if refused & (refused - 1) == 0, let gate {
                StandardError.write(
                    "skanc serve: \(refused) postbacks past their quota did not verify and were not stored (the latest's "
                        + "SHA-256: \(gate.refusals.lastDigest))")
            }
            entry.connection.awaitingAnswer = false
            answer(entry.connection, route: entry.framework, Self.verifyLater)
            if connections[entry.connection.descriptor] === entry.connection { serve(entry.connection) }
        }
    }

    /// The answers to bodies that are no postback, one per reason, made once.
    static let refusals: [String: SerializedResponse] = Dictionary(
        uniqueKeysWithValues: PostbackShapeCheck.reasons.map {
            ($0, SerializedResponse(HTTPResponse(.badRequest, body: "not a postback: \($0)\n")))
        })
    static let notAPostback = SerializedResponse(HTTPResponse(.badRequest, body: "not a postback\n"))

    /// `skanc report` over the store, from the counter's tally and summary.
    private func report(_ format: ReportFormat, _ progress: IntakeCounter.Progress, uncounted: Int) -> HTTPResponse {
        guard let catalog = configuration.catalog, let tally = progress.tally else { return Self.stillCounting }
        let bytes: [UInt8]
        if catalog.routesByApp {
            var written: [UInt8] = []
            ManyAppsReport(tally: tally, summary: progress.summary, catalog: catalog).write(format) { written += $0 }
            bytes = written
        } else {
            bytes = format.bytes(
                PostbackReport(tally: tally, summary: progress.summary, versions: catalog.apps[0].versions))
        }
        var response = HTTPResponse(.ok, contentType: format.contentType, bytes: bytes)
        if uncounted > 0 { response.extraHeaders.append(("Skanc-Uncounted", String(uncounted))) }
        // A segment that could not be read back is not in the figures: the answer says how much is missing.
        if progress.unreadableBytes > 0 {
            response.extraHeaders.append(("Skanc-Unreadable-Bytes", String(progress.unreadableBytes)))
            response.extraHeaders.append(
                ("Skanc-Unreadable-Segments", progress.unreadableSegments.sorted().joined(separator: " ")))
        }
        return response
    }
}

/// A `/metrics` or `/report` request waiting for the counter to count what was acknowledged before it.
struct WaitingForCounts {
    enum Kind: Equatable {
        case metrics
        case report(ReportFormat)
    }

    var connection: Connection
    var kind: Kind
    /// The newest batch acknowledged when the request came.
    var through: Int
    var headOnly: Bool
    var deadline: Double
}

extension ReportFormat {
    /// The media type an answer in this format carries.
    var contentType: String {
        switch self {
        case .html: "text/html; charset=utf-8"
        case .json: "application/json"
        case .csv: "text/csv; charset=utf-8"
        case .markdown: "text/markdown; charset=utf-8"
        }
    }
}
