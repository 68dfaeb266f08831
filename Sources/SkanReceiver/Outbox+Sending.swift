import SkanCore
import SkanPostbacks

/// The forwarding thread: takes the stored lines in order, sends each until it is delivered or refused for
/// good, and moves the cursor past it.
extension Outbox {
    /// The paths Apple posts to, by framework: a forwarded postback goes where it came.
    static let paths = [
        "skadnetwork": "/.well-known/skadnetwork/report-attribution/",
        "adattributionkit": "/.well-known/appattribution/report-attribution/",
    ]

    /// Backoff between attempts: from half a second, doubling, at most a minute; each wait is drawn between
    /// half and all of it (jitter, so that receivers restarted together do not retry in step).
    static let firstBackoff = 0.5
    static let longestBackoff = 60.0

    func run() {
        while let next = nextPending() {
            guard let bytes = PostbackStore.wholeLines(of: next.range, about: 64 << 10, for: "forward") else {
                // Unreadable: said on standard error; the range is passed so that forwarding goes on.
                finish(next.range.end - next.range.start, lines: next.lines, of: next.range)
                continue
            }
            var start = 0
            while let lineBreak = bytes[start...].firstIndex(of: 10) {
                let line = bytes[start..<lineBreak]
                let end = next.range.start + lineBreak + 1
                guard forward(line, segment: next.range.path, endingAt: end) else { return stopped() }
                // Past this line: delivered, refused for good, or not for this destination.
                state.worker.cursor.sentThrough = end
                state.worker.cursor.sendingThrough = end
                cursorFile.write(state.worker.cursor)
                finish(lineBreak + 1 - start, lines: 1, of: next.range)
                start = lineBreak + 1
            }
        }
        stopped()
    }

    /// The first range waiting (the cursor made durable while there is none), or nil when stopping.
    private func nextPending() -> Pending? {
        lock.acquire()
        defer { lock.release() }
        if state.pending.isEmpty, !state.stopping {
            lock.release()
            cursorFile.write(state.worker.cursor, sync: true)
            lock.acquire()
        }
        while state.pending.isEmpty, !state.stopping { lock.wait() }
        return state.stopping ? nil : state.pending[0]
    }

    /// Moves past `bytes` bytes and `lines` lines of the first waiting range (which `range` starts).
    private func finish(_ bytes: Int, lines: Int, of range: PostbackStore.StoredRange) {
        lock.holding {
            guard let first = state.pending.first, first.range.path == range.path else { return }
            state.pending[0].range.start += bytes
            state.pending[0].lines -= lines
            state.figures.waiting -= lines
            if state.pending[0].range.start >= state.pending[0].range.end { state.pending.removeFirst() }
            state.figures.oldestWaiting = state.pending.first?.receivedAt
        }
    }

    private func stopped() {
        cursorFile.write(state.worker.cursor, sync: true)
        lock.holding {
            state.stopped = true
            lock.wakeAll()
        }
    }

    /// Sends one stored line until it is delivered, refused for good or not for this destination; false when
    /// forwarding stops first.
    private func forward(_ line: ArraySlice<UInt8>, segment: String, endingAt end: Int) -> Bool {
        let relative = String(segment.dropFirst(postbacksFolder.count))
        if state.worker.cursor.segment != relative {
            state.worker.cursor = OutboxCursor(segment: relative, sentThrough: end - line.count - 1, sendingThrough: 0)
        }
        guard case .postback(let sender) = state.worker.check.check(Array(line)) else {
            return skip("not-a-postback")
        }
        if sender.signature == .development, !forwardsDevelopment { return skip("development") }
        guard destination.takes(adNetwork: sender.adNetwork) else { return skip("other-ad-network") }
        let path = Self.paths[sender.framework] ?? Self.paths["skadnetwork"]!
        var attempt = 0
        while true {
            state.worker.cursor.sendingThrough = end
            cursorFile.write(state.worker.cursor)
            let outcome = state.worker.client.post(line, path: path)
            if case .answered(let status) = outcome, (200..<300).contains(status) {
                endEpisode()
                lock.holding { state.figures.sent += 1 }
                return true
            }
            if case .answered(let status) = outcome, (400..<500).contains(status), status != 408, status != 429 {
                StandardError.write(
                    "skanc serve: forward \(destination.name): answered \(status) to a postback of \(segment) "
                        + "ending at byte \(end); it is not sent again")
                lock.holding { state.figures.rejected += 1 }
                return true
            }
            let reason =
                switch outcome {
                case .answered(let status): "answered \(status)"
                case .failed(let reason): reason
                }
            beginEpisode(reason)
            let delay = min(Self.longestBackoff, Self.firstBackoff * Double(1 << min(attempt, 20)))
            let wait = delay * (0.5 + 0.5 * Double(state.worker.random.next() >> 11) / Double(1 << 53))
            attempt += 1
            let stopping = lock.holding {
                state.figures.failedAttempts += 1
                state.figures.retries += 1
                if !state.stopping { lock.wait(seconds: wait) }
                return state.stopping
            }
            if stopping { return false }
        }
    }

    private func skip(_ reason: String) -> Bool {
        lock.holding { state.figures.skipped[reason, default: 0] += 1 }
        return true
    }

    /// Says once when a destination starts failing, and once when it delivers again.
    private func beginEpisode(_ reason: String) {
        state.worker.failedInEpisode += 1
        guard state.worker.failing == nil else { return }
        state.worker.failing = reason
        StandardError.write(
            "skanc serve: forward \(destination.name): \(reason); trying again with backoff (at most a minute apart)")
    }

    private func endEpisode() {
        guard state.worker.failing != nil else { return }
        StandardError.write(
            "skanc serve: forward \(destination.name): delivering again after \(state.worker.failedInEpisode) "
                + "failed attempts")
        state.worker.failing = nil
        state.worker.failedInEpisode = 0
    }
}
