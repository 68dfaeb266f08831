import SkanPostbacks

/// The receiver's counters, written in the Prometheus text exposition format (version 0.0.4) at `/metrics`.
struct ReceiverMetrics {
    /// Requests answered, by route and status.
    var requests: [String: [Int: Int]] = [:]
    /// Postbacks made durable, by framework (the route they came by).
    var stored: [String: Int] = [:]
    var storedBytes = 0
    /// Postbacks made durable in the development store (`DATA/development`), apart from the figures.
    var storedDevelopment = 0
    /// Postbacks the store held when the receiver started (counted too, before what arrives).
    var storedAtStart = 0
    /// Bodies refused (not one JSON object, too large, not stored), by reason.
    var refused: [String: Int] = [:]
    var openConnections = 0
    /// fsync latencies: counts per upper bound in seconds, their sum and count.
    static let bounds: [Double] = [0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]
    var fsyncBuckets = [Int](repeating: 0, count: bounds.count)
    var fsyncSum = 0.0
    var fsyncCount = 0

    /// Postbacks stored (before the start and since) that the counter has not yet read.
    func uncounted(_ summary: PostbackSummary) -> Int {
        max(0, storedAtStart + stored.values.reduce(0, +) - summary.read)
    }

    mutating func answered(route: String, status: Int) {
        requests[route, default: [:]][status, default: 0] += 1
    }

    mutating func synced(seconds: Double) {
        for (index, bound) in Self.bounds.enumerated() where seconds <= bound { fsyncBuckets[index] += 1 }
        fsyncSum += seconds
        fsyncCount += 1
    }

    /// The exposition: every metric with HELP and TYPE, labels sorted, so that the text is stable.
    func text(
        summary: PostbackSummary, unreadableBytes: Int = 0, store: (writable: Bool, available: Int?)? = nil,
        forwarding: [(name: String, figures: Outbox.Figures)] = []
    ) -> String {
        var out = ""
        func metric(_ name: String, _ type: String, _ help: String, _ samples: [(labels: String, value: String)]) {
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
            for sample in samples { out += "\(name)\(sample.labels) \(sample.value)\n" }
        }
        metric(
            "skanc_requests_total", "counter", "HTTP requests answered, by route and status.",
            requests.keys.sorted().flatMap { route in
                requests[route]!.keys.sorted().map {
                    ("{route=\"\(route)\",status=\"\($0)\"}", String(requests[route]![$0]!))
                }
            })
        metric(
            "skanc_postbacks_stored_total", "counter", "Postbacks written and fsync'ed, by framework.",
            stored.keys.sorted().map { ("{framework=\"\($0)\"}", String(stored[$0]!)) })
        metric(
            "skanc_development_postbacks_stored_total", "counter",
            "Postbacks signed with Apple's development keys, stored apart in DATA/development and in no other figure.",
            [("", String(storedDevelopment))])
        metric(
            "skanc_postbacks_stored_bytes_total", "counter", "Bytes of postbacks stored.", [("", String(storedBytes))])
        metric(
            "skanc_postbacks_by_status_total", "counter",
            "Stored postbacks by the status skanc postbacks gives them (duplicate: seen before).",
            PostbackStatus.allCases.map { ("{status=\"\($0.code)\"}", String(summary.count(of: $0))) })
        metric(
            "skanc_postbacks_by_signature_total", "counter", "Stored postbacks by what their signature verified to.",
            SignatureOutcome.allCases.map { ("{signature=\"\($0.rawValue)\"}", String(summary.count(of: $0))) })
        metric(
            "skanc_postbacks_verified_unique_total", "counter", "Stored postbacks that are ok: verified and unique.",
            [("", String(summary.ok))])
        metric(
            "skanc_bodies_refused_total", "counter", "Request bodies not stored, by reason.",
            refused.keys.sorted().map { ("{reason=\"\($0)\"}", String(refused[$0]!)) })
        metric(
            "skanc_postbacks_uncounted", "gauge",
            "Postbacks stored but not yet decoded and verified for these counts (the counter catches up after a burst).",
            [("", String(uncounted(summary)))])
        metric(
            "skanc_store_unreadable_bytes", "gauge",
            "Stored bytes that could not be read back to count (see the log): missing from these counts and /report.",
            [("", String(unreadableBytes))])
        if let store {
            metric(
                "skanc_store_writable", "gauge",
                "1 while the store takes writes (what /healthz says), 0 while they fail.",
                [("", store.writable ? "1" : "0")])
            if let available = store.available {
                metric(
                    "skanc_store_available_bytes", "gauge", "Bytes free on the store's file system for the receiver.",
                    [("", String(available))])
            }
        }
        metric("skanc_open_connections", "gauge", "Connections open now.", [("", String(openConnections))])
        forwardingMetrics(forwarding, now: Clock.epochSeconds(), into: metric)
        out += "# HELP skanc_fsync_seconds Time to make a batch durable.\n# TYPE skanc_fsync_seconds histogram\n"
        for (index, bound) in Self.bounds.enumerated() {
            out += "skanc_fsync_seconds_bucket{le=\"\(bound)\"} \(fsyncBuckets[index])\n"
        }
        out += "skanc_fsync_seconds_bucket{le=\"+Inf\"} \(fsyncCount)\n"
        out += "skanc_fsync_seconds_sum \(fsyncSum)\nskanc_fsync_seconds_count \(fsyncCount)\n"
        return out
    }
}
