import SkanFiles

/// Where a destination's forwarding stands, kept in `DIR/outbox/<instance>-<name>.cursor`: the segment (its path
/// under `postbacks/`) and the offset up to which every line was sent, and the end of the line being sent. It is
/// rewritten in place before and after each send (the page cache keeps it through a SIGKILL) and fsync'ed at
/// most every half second and when forwarding pauses, so a power loss re-sends at most that half second's
/// postbacks, and a kill at most the one in flight: at least once, never lost.
struct OutboxCursor: Equatable {
    /// `DAY/NAME.jsonl`, or empty before any segment of this receiver existed (everything stored is then after
    /// it).
    var segment: String
    var sentThrough: Int
    /// The end of the line being sent when the record was written; past `sentThrough` while a send is under way.
    var sendingThrough: Int

    /// The record, one line of fixed width so that rewriting it in place never leaves a longer old one behind.
    var record: [UInt8] {
        var text = "\(segment) \(sentThrough) \(sendingThrough)"
        text += String(repeating: " ", count: max(0, Self.recordWidth - 1 - text.utf8.count)) + "\n"
        return Array(text.utf8)
    }

    static let recordWidth = 512

    init(segment: String, sentThrough: Int, sendingThrough: Int) {
        self.segment = segment
        self.sentThrough = sentThrough
        self.sendingThrough = sendingThrough
    }

    /// Reads a record; nil when it is not one.
    init?(record bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self).trimmingTrailingSpaces()
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, let sent = Int(parts[1]), let sending = Int(parts[2]), sent >= 0, sending >= sent,
            !parts[0].contains("..")
        else { return nil }
        segment = String(parts[0])
        sentThrough = sent
        sendingThrough = sending
    }
}

/// The file a cursor lives in, open for the life of the outbox.
final class OutboxCursorFile {
    var path: String { file.path }
    private let file: OpenFile
    private var lastSync = 0.0

    /// Opens (creating) the file.
    init(path: String) throws(PostbackStore.Failure) {
        file = try OpenFile.openForUpdate(path)
    }

    /// The cursor the file holds, or nil when it is new or unreadable.
    func read() -> OutboxCursor? {
        guard let bytes = file.read(OutboxCursor.recordWidth, at: 0), !bytes.isEmpty else { return nil }
        return OutboxCursor(record: bytes)
    }

    /// Writes `cursor` in place; fsync'ed when `sync` or when the last fsync is half a second old. False when
    /// the write failed (forwarding then waits: a cursor that cannot be kept would re-send without end).
    @discardableResult
    func write(_ cursor: OutboxCursor, sync: Bool = false) -> Bool {
        guard file.write(cursor.record, at: 0) else { return false }
        let now = Clock.now()
        if sync || now - lastSync >= 0.5 {
            lastSync = now
            return file.sync() == nil
        }
        return true
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> Substring {
        var text = Substring(self)
        while let last = text.last, last == " " || last == "\n" || last == "\0" { text.removeLast() }
        return text
    }
}
