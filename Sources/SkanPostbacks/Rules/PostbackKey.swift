/// The keys of a postback that skanc reads. Anything else in a postback is skipped (but still checked to be
/// valid JSON). SKAdNetwork keys sit at the top level; AdAttributionKit identifiers sit in the JWS payload.
/// At most 32 keys: sets of them are bit masks of a `UInt32` (`PostbackKeySet`).
package enum PostbackKey: Int, CaseIterable {
    // SKAdNetwork, and the values of AdAttributionKit stanzas
    case version, adNetworkID, campaignID, sourceIdentifier, appID, transactionID, redownload, fidelityType
    case didWin, postbackSequenceIndex, coarseConversionValue, conversionValue, countryCode
    case sourceAppID, sourceDomain, attributionSignature
    case jwsString, adInteractionType
    // AdAttributionKit JWS payload
    case postbackIdentifier, adNetworkIdentifier, advertisedItemIdentifier, conversionType
    case publisherItemIdentifier, marketplaceIdentifier, impressionType

    package var name: StaticString {
        switch self {
        case .version: "version"
        case .adNetworkID: "ad-network-id"
        case .campaignID: "campaign-id"
        case .sourceIdentifier: "source-identifier"
        case .appID: "app-id"
        case .transactionID: "transaction-id"
        case .redownload: "redownload"
        case .fidelityType: "fidelity-type"
        case .didWin: "did-win"
        case .postbackSequenceIndex: "postback-sequence-index"
        case .coarseConversionValue: "coarse-conversion-value"
        case .conversionValue: "conversion-value"
        case .countryCode: "country-code"
        case .sourceAppID: "source-app-id"
        case .sourceDomain: "source-domain"
        case .attributionSignature: "attribution-signature"
        case .jwsString: "jws-string"
        case .adInteractionType: "ad-interaction-type"
        case .postbackIdentifier: "postback-identifier"
        case .adNetworkIdentifier: "ad-network-identifier"
        case .advertisedItemIdentifier: "advertised-item-identifier"
        case .conversionType: "conversion-type"
        case .publisherItemIdentifier: "publisher-item-identifier"
        case .marketplaceIdentifier: "marketplace-identifier"
        case .impressionType: "impression-type"
        }
    }

    /// The UTF-8 bytes of the key's name.
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)) }
}

/// Finds which `PostbackKey` a JSON key spells with one hash probe and a few 8-byte compares. The table
/// is a perfect hash of the keys' lengths and first eight bytes: the multiplier is the first one that
/// puts every key in a slot of its own. Owns its memory, so a lookup counts no references.
final class PostbackKeyTable: Sendable {
    /// One table for the process: it never changes once built. Readers keep a reference to it, so the hot
    /// loop does not check the global's initialisation.
    static let shared = PostbackKeyTable()

    private struct Entry {
        var key: PostbackKey? = nil
        var length = 0
        /// The name's 8-byte words at offsets 0, 8 and 16, and the one ending with the name (for names of
        /// 8 bytes or more); names under 8 bytes sit zero-padded in the first word.
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

        /// Whether the bytes at `text` past the first word are this name's (`length` at least 8 and at
        /// most 32; the caller has compared the first word and knows `length` bytes are there).
        @inline(__always)
        func restMatches(_ text: UnsafePointer<UInt8>) -> Bool {
            @inline(__always) func load(_ offset: Int) -> UInt64 {
                UnsafeRawPointer(text + offset).loadUnaligned(as: UInt64.self).littleEndian
            }
            guard load(length - 8) == words.3 else { return false }
            if length > 16 { guard load(8) == words.1 else { return false } }
            if length > 24 { guard load(16) == words.2 else { return false } }
            return true
        }
    }

    private static let slotBits = 6
    private nonisolated(unsafe) let entries = UnsafeMutablePointer<Entry>.allocate(
        capacity: 1 << PostbackKeyTable.slotBits)
    private let multiplier: UInt64
    /// Each key's member name as compact JSON writes it, `"name":`, by raw value: for the check that a
    /// predicted key stands at a position (`quotedName`).
    private nonisolated(unsafe) let quotedNames = UnsafeMutablePointer<Entry>.allocate(
        capacity: PostbackKey.allCases.count)

    init() {
        entries.initialize(repeating: Entry(), count: 1 << Self.slotBits)
        var multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
        while true {
            var taken = Set<Int>()
            let distinct = PostbackKey.allCases.allSatisfy { key in
                let bytes = key.bytes
                return taken.insert(Self.slot(Self.word(bytes, at: 0), bytes.count, multiplier)).inserted
            }
            if distinct { break }
            multiplier = multiplier &* 0x2545_F491_4F6C_DD1D &+ 1
        }
        self.multiplier = multiplier
        for key in PostbackKey.allCases {
            entries[Self.slot(Self.word(key.bytes, at: 0), key.bytes.count, multiplier)] = Self.entry(key, key.bytes)
            (quotedNames + key.rawValue).initialize(
                to: Self.entry(key, [UInt8(ascii: "\"")] + key.bytes + [UInt8(ascii: "\""), UInt8(ascii: ":")]))
        }
    }

    deinit {
        entries.deallocate()
        quotedNames.deallocate()
    }

    private static func entry(_ key: PostbackKey, _ bytes: [UInt8]) -> Entry {
        let last = bytes.count >= 8 ? word(bytes, at: bytes.count - 8) : 0
        return Entry(
            key: key, length: bytes.count, words: (word(bytes, at: 0), word(bytes, at: 8), word(bytes, at: 16), last))
    }

    /// Up to eight bytes from `offset` as a little-endian word, zero-padded.
    private static func word(_ bytes: [UInt8], at offset: Int) -> UInt64 {
        var word: UInt64 = 0
        for index in offset..<max(offset, min(offset + 8, bytes.count)) {
            word |= UInt64(bytes[index]) << (8 * UInt64(index - offset))
        }
        return word
    }

    @inline(__always)
    private static func slot(_ first: UInt64, _ length: Int, _ multiplier: UInt64) -> Int {
        Int(truncatingIfNeeded: ((first ^ UInt64(truncatingIfNeeded: length)) &* multiplier) >> UInt64(64 - slotBits))
    }

    /// The key spelled by `bytes[start..<end]` (an unescaped JSON string's contents), if skanc reads it.
    @inline(__always)
    func match(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> PostbackKey? {
        let length = end - start
        guard length > 0, length <= 32, let base = bytes.baseAddress else { return nil }
        @inline(__always) func load(_ offset: Int) -> UInt64 {
            UnsafeRawPointer(base + start + offset).loadUnaligned(as: UInt64.self).littleEndian
        }
        var first: UInt64
        if length >= 8 {
            first = load(0)
        } else if start + 8 <= bytes.count {
            first = load(0) & ((1 << UInt64(8 * length)) - 1)
        } else {
            first = 0
            for index in 0..<length { first |= UInt64(base[start + index]) << (8 * UInt64(index)) }
        }
        let entry = entries[Self.slot(first, length, multiplier)]
        guard entry.length == length, entry.words.0 == first else { return nil }
        guard length <= 8 || entry.restMatches(base + start) else { return nil }
        return entry.key
    }

    /// Where the member name `"name":` of `key` ends (after the colon) when it stands at `index`, or nil: a
    /// few word compares where scanning the name and looking it up would take a loop and a hash. Every
    /// quoted name is 9 to 29 bytes long.
    @inline(__always)
    func quotedName(_ key: PostbackKey, at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let expected = quotedNames[key.rawValue]
        let length = expected.length
        guard index + length <= bytes.count, let base = bytes.baseAddress,
            UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self).littleEndian == expected.words.0,
            expected.restMatches(base + index)
        else { return nil }
        return index + length
    }
}
