/// Where each known key's value sits: in the line itself, or in the decoded JWS payload of an
/// AdAttributionKit stanza. Reset for every line and reused, so reading a line allocates nothing.
/// A class, so its slots are allocated once and freed with it.
final class PostbackFields {
    enum Source: UInt8 { case line, payload }

    struct Value {
        var span: JSONScanner.Span
        var source: Source
    }

    /// One slot per key; a slot counts only when its bit in `present` is set, so a reset is one store.
    private let slots = UnsafeMutablePointer<Value>.allocate(capacity: PostbackKey.allCases.count)
    private var present: UInt32 = 0
    /// The keys found at the top level of the line, and those found in the JWS payload (a key found in
    /// both is in both), whichever value the slot kept.
    private(set) var inLine = PostbackKeySet()
    private(set) var inPayload = PostbackKeySet()
    private let keys = PostbackKeyTable.shared
    private var keyScratch: [UInt8] = []
    /// The known key that followed each key in the objects read so far from each source (the raw value, or
    /// `noKey`), checked first: the postbacks of one file are mostly written by one program, with their
    /// members in one order, and a postback without some member breaks the order at that member only. A
    /// wrong guess costs a word compare; the member is then read as any other. Rows of `PostbackKey`s plus
    /// the object's start and a member skanc does not read.
    private let followers = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * PostbackFields.followerRows)
    private static let followerRows = PostbackKey.allCases.count + 2, noKey = UInt8.max

    init() {
        followers.initialize(repeating: Self.noKey, count: 2 * Self.followerRows)
    }

    deinit {
        slots.deallocate()
        followers.deallocate()
    }

    @inline(__always)
    func reset() {
        present = 0
        inLine = PostbackKeySet()
        inPayload = PostbackKeySet()
    }

    /// The value of `key` only when it came from `source`.
    @inline(__always)
    func value(_ key: PostbackKey, from source: Source) -> Value? {
        guard let value = self[key], value.source == source else { return nil }
        return value
    }

    subscript(key: PostbackKey) -> Value? {
        @inline(__always) get { present & (1 << UInt32(key.rawValue)) != 0 ? slots[key.rawValue] : nil }
        @inline(__always) set {
            if let newValue {
                (slots + key.rawValue).initialize(to: newValue)
                present |= 1 << UInt32(key.rawValue)
            } else {
                present &= ~(1 << UInt32(key.rawValue))
            }
        }
    }

    /// Reads the members of the object at `scanner.index` into the slots of the keys skanc knows; other
    /// members are scanned (so the whole line is checked) and dropped. A repeated key keeps its last value.
    /// Throws when the text is not one valid JSON object with nothing after it.
    func readObject(_ scanner: inout JSONScanner, source: Source, stack: inout [UInt8]) throws(JSONScanner.Failure) {
        try scanner.expect(UInt8(ascii: "{"))
        scanner.skipWhitespace()
        if scanner.peek() == UInt8(ascii: "}") {
            scanner.index += 1
        } else {
            let follower = followers + (source == .line ? 0 : Self.followerRows)
            // The row of the member before: 0 at the object's start, 1 after an unknown name, then the keys.
            var previous = 0
            while true {
                scanner.skipWhitespace()
                let known: PostbackKey?
                if let guess = PostbackKey(rawValue: Int(follower[previous])),
                    let after = keys.quotedName(guess, at: scanner.index, in: scanner.bytes)
                {
                    scanner.index = after
                    known = guess
                } else {
                    let key = try scanner.scanString()
                    scanner.skipWhitespace()
                    try scanner.expect(UInt8(ascii: ":"))
                    known = match(key, in: scanner.bytes)
                    follower[previous] = known.map { UInt8($0.rawValue) } ?? Self.noKey
                }
                previous = known.map { $0.rawValue + 2 } ?? 1
                scanner.skipWhitespace()
                let value = try scanner.scanValue(stack: &stack)
                if let known {
                    self[known] = Value(span: value, source: source)
                    if source == .line { inLine.insert(known) } else { inPayload.insert(known) }
                }
                scanner.skipWhitespace()
                guard let byte = scanner.peek() else { throw JSONScanner.Failure() }
                scanner.index += 1
                if byte == UInt8(ascii: "}") { break }
                guard byte == UInt8(ascii: ",") else { throw JSONScanner.Failure() }
            }
        }
        scanner.skipWhitespace()
        guard scanner.atEnd else { throw JSONScanner.Failure() }
    }

    /// The known key a member's name spells; a name with escapes (`"conversion\u002dvalue"`) is decoded
    /// first, as every JSON reader does.
    @inline(__always)
    private func match(_ name: JSONScanner.Span, in bytes: UnsafeBufferPointer<UInt8>) -> PostbackKey? {
        guard _slowPath(name.hasEscapes) else { return keys.match(bytes, name.start, name.end) }
        return matchDecoded(name, in: bytes)
    }

    /// The rare name with escapes, out of line so that the hot loop stays small.
    @inline(never)
    private func matchDecoded(_ name: JSONScanner.Span, in bytes: UnsafeBufferPointer<UInt8>) -> PostbackKey? {
        let decoded = Array(JSONStringDecoding.decode(bytes, name.start, name.end, scratch: &keyScratch).utf8)
        return decoded.withUnsafeBufferPointer { keys.match($0, 0, $0.count) }
    }
}
