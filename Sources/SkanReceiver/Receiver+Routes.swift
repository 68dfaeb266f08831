import SkanCore
import SkanHTTP
import SkanPostbacks
import SkanReports

/// What each path answers. Public: the two report-attribution paths (with and without the trailing slash).
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
        if let framework = Self.postbackPaths[request.path] {
            switch request.method {
            case "POST":
                receivePostback(request.body, framework: framework, on: connection)
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
        let path = String(request.path)
        guard connection.isAdmin, ["/healthz", "/metrics", "/report"].contains(path) else {
            answer(connection, route: "other", HTTPResponse(.notFound, body: "Not Found\n"), headOnly: headOnly)
            return
        }
        guard request.method == "GET" || headOnly else {
            answer(connection, route: String(path.dropFirst()), Self.notAllowed("GET, HEAD"))
            return
        }
        switch path {
        case "/healthz":
            answer(connection, route: "healthz", HTTPResponse(.ok, body: "ok\n"), headOnly: headOnly)
        case "/metrics":
            // Answered once the counter has counted everything acknowledged before this request (at once when
            // idle; under a burst it may lag behind), or after `countingWait` with the lag in the metrics.
            connection.awaitingAnswer = true
            waitingForCounts.append((connection, durableThrough, headOnly, Clock.now() + Self.countingWait))
            answerMetricsCounted(now: Clock.now())
        default:
            answer(connection, route: "report", report(format: request.queryValue("format")), headOnly: headOnly)
        }
    }

    /// The longest `/metrics` waits for the counter to catch up with what was acknowledged before it: well
    /// inside Prometheus's default scrape timeout (10 s), so a scrape during a burst still gets its answer.
    static let countingWait = 5.0

    /// Answers the `/metrics` requests whose counts are in (or whose wait is over), then what came after them.
    func answerMetricsCounted(now: Double) {
        guard !waitingForCounts.isEmpty else { return }
        let progress = counter.progress
        let ready = waitingForCounts.filter { progress.countedThrough >= $0.through || now >= $0.deadline }
        guard !ready.isEmpty else { return }
        waitingForCounts.removeAll { progress.countedThrough >= $0.through || now >= $0.deadline }
        let text = metrics.text(summary: progress.summary)
        for entry in ready {
            entry.connection.awaitingAnswer = false
            answer(
                entry.connection, route: "metrics",
                HTTPResponse(.ok, contentType: "text/plain; version=0.0.4; charset=utf-8", body: text),
                headOnly: entry.headOnly)
            if connections[entry.connection.descriptor] === entry.connection { serve(entry.connection) }
        }
    }

    static func notAllowed(_ methods: String) -> HTTPResponse {
        HTTPResponse(.methodNotAllowed, body: "Method Not Allowed\n", allow: methods)
    }

    /// A body that is one JSON object joins this turn's batch; anything else is kept in `rejects/` and refused.
    private func receivePostback(_ body: [UInt8], framework: String, on connection: Connection) {
        guard JSONObjectCheck.holdsOneObject(body) else {
            metrics.refused["not-json-object", default: 0] += 1
            store.reject(body, reason: "not-json-object", at: Clock.epochSeconds())
            answer(connection, route: framework, HTTPResponse(.badRequest, body: "not one JSON object\n"))
            return
        }
        // A line break in JSON is white space between tokens (a raw one inside a string is not JSON): as a
        // space, the line holds the same value.
        let line = body.contains { $0 == 10 || $0 == 13 } ? body.map { $0 == 10 || $0 == 13 ? 32 : $0 } : body
        connection.awaitingAnswer = true
        batch.append((connection, line, framework))
    }

    /// `skanc report` over every segment stored so far, in `format` (markdown by default).
    private func report(format name: Substring?) -> HTTPResponse {
        guard let versions = configuration.versions else {
            return HTTPResponse(.notFound, body: "no report: start skanc serve with --schema\n")
        }
        guard let format = ReportFormat(rawValue: String(name ?? "markdown")) else {
            return HTTPResponse(.badRequest, body: "format is html, json, csv or markdown\n")
        }
        let options = PostbackReader.Options {
            $0.writesRows = false
            $0.verification = configuration.verification
            $0.grouping = PostbackReader.Grouping(groupings: PostbackGrouping.defaults)
        }
        let reader = PostbackReader(versions: versions, options: options, output: DiscardedLines())
        // Up to what is durable: the writer may be appending to the newest segment meanwhile.
        for segment in store.durableSegments() {
            guard var bytes = try? PostbackStore.contents(segment.path) else { continue }
            if let length = segment.length, length < bytes.count { bytes.removeLast(bytes.count - length) }
            var input = ByteArrayInput(bytes)
            try? reader.read(&input, name: segment.path)
        }
        guard let tally = reader.tally else { return HTTPResponse(.serviceUnavailable, body: "no report\n") }
        let report = PostbackReport(tally: tally, summary: reader.summary, versions: versions)
        return HTTPResponse(.ok, contentType: format.contentType, bytes: format.bytes(report))
    }
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
