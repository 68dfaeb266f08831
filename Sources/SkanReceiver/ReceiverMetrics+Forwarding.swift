/// The forwarding figures of `/metrics`, one sample per destination (`destination="NAME"`).
extension ReceiverMetrics {
    typealias MetricWriter = (
        _ name: String, _ type: String, _ help: String, _ samples: [(labels: String, value: String)]
    )
        -> Void

    func forwardingMetrics(
        _ forwarding: [(name: String, figures: Outbox.Figures)], now: Int, into metric: MetricWriter
    ) {
        guard !forwarding.isEmpty else { return }
        func each(_ value: (Outbox.Figures) -> Int) -> [(labels: String, value: String)] {
            forwarding.map { ("{destination=\"\($0.name)\"}", String(value($0.figures))) }
        }
        metric("skanc_forward_sent_total", "counter", "Postbacks delivered to each destination (a 2xx).", each(\.sent))
        metric(
            "skanc_forward_failed_total", "counter",
            "Attempts that failed (no answer, 408, 429, 5xx), to be tried again.", each(\.failedAttempts))
        metric("skanc_forward_retries_total", "counter", "Attempts after a postback's first.", each(\.retries))
        metric(
            "skanc_forward_rejected_total", "counter", "Postbacks a destination refused for good (another 4xx).",
            each(\.rejected))
        metric(
            "skanc_forward_resent_total", "counter",
            "Postbacks sent again after a restart that may have arrived before it.", each(\.resent))
        let reasons = Set(forwarding.flatMap { $0.figures.skipped.keys }).sorted()
        metric(
            "skanc_forward_skipped_total", "counter",
            "Stored postbacks not for a destination: development, another ad network, not a postback.",
            forwarding.flatMap { entry in
                reasons.map {
                    ("{destination=\"\(entry.name)\",reason=\"\($0)\"}", String(entry.figures.skipped[$0] ?? 0))
                }
            })
        metric(
            "skanc_forward_lag_postbacks", "gauge", "Postbacks stored and not yet forwarded.", each(\.waiting))
        metric(
            "skanc_forward_lag_seconds", "gauge",
            "Seconds since the oldest postback not yet forwarded was received (0 when none waits).",
            each { figures in figures.oldestWaiting.map { max(0, now - $0) } ?? 0 })
    }
}
