public import SkanCore

/// The shape of a studio's trial for `skanc simulate --postbacks --mix FILE`: users drawn from several journeys
/// by weight, from ad networks' campaigns of different sizes, each campaign's privacy tiers following its size,
/// a share of them through AdAttributionKit. Read from JSON:
///
///     {"journeys": [{"file": "browser.jsonl", "weight": 95.4, "keep": 0.5},
///                   {"file": "payer.jsonl", "weight": 4.6, "keep": 1}],
///      "networks": [{"ad_network_id": "one.skadnetwork", "campaigns": 12, "weight": 2}],
///      "adattributionkit": 0.15}
///
/// `keep` is the probability a user keeps each line of the journey (1: the whole journey, so a payer journey's
/// weight is the payers' share); `tiers` (`{"3": 0.5, "2": 0.5}`) gives every campaign one mix instead of the
/// size-based one (`tiers(forInstalls:)`).
public struct SimulationMix: Sendable {
    /// One journey users are drawn from.
    public struct Journey: Sendable, Equatable {
        /// The journey file, as the mix names it (relative to the mix file).
        public var file: String
        /// Its share of users, relative to the other journeys' weights.
        public var weight: Double
        /// The probability that a user keeps each of its lines.
        public var keep: Double
    }

    /// One ad network and how many campaigns it runs.
    public struct Network: Sendable, Equatable {
        /// The `ad-network-id` its postbacks carry.
        public var adNetworkID: String
        /// Its campaigns (four-digit source identifiers), 1 to 900.
        public var campaigns: Int
        /// Its share of users, relative to the other networks' weights.
        public var weight: Double
    }

    /// Why a mix file cannot be used: what to write instead.
    public struct Invalid: Error, Equatable {
        /// The problem and what to do.
        public var message: String
    }

    /// The journeys, in the order written.
    public var journeys: [Journey]
    /// The networks, in the order written.
    public var networks: [Network]
    /// The share of users whose postbacks come through AdAttributionKit, 0 to 1.
    public var adAttributionKit: Double
    /// One tier mix for every campaign; nil for the mix that follows each campaign's size.
    public var tiers: [PostbackDataTier: Double]?

    /// The most journeys, and the most networks, a mix may list: a run reads every journey before it starts.
    public static let limit = 100

    /// The mix a JSON document describes.
    public init(json: [UInt8]) throws(Invalid) {
        var reader = JSONReader(bytes: json, maximumDepth: 4, tooDeep: "a mix nests at most four deep")
        let document: JSONDocument
        do {
            document = try reader.document()
        } catch {
            throw Invalid(message: "not JSON: \(error.message)")
        }
        guard case .object(let members) = document else { throw Invalid(message: "a mix is one JSON object") }
        let known = ["journeys", "networks", "adattributionkit", "tiers"]
        if let unknown = members.first(where: { !known.contains($0.0) }) {
            throw Invalid(message: "unknown key '\(unknown.0)': a mix has \(known.joined(separator: ", "))")
        }
        guard case .array(let journeyItems)? = document["journeys"], (1...Self.limit).contains(journeyItems.count)
        else {
            throw Invalid(message: "'journeys' is a list of 1 to \(Self.limit) {\"file\": \"…\", \"weight\": 1}")
        }
        journeys = try journeyItems.map { item throws(Invalid) in
            guard case .string(let file)? = item["file"], !file.isEmpty else {
                throw Invalid(message: "each journey names its 'file'")
            }
            let weight = try Self.number(item["weight"], "a journey's 'weight'", default: 1, range: 0...1e12)
            let keep = try Self.number(item["keep"], "a journey's 'keep'", default: 0.5, range: 0...1)
            return Journey(file: file, weight: weight, keep: keep)
        }
        guard journeys.contains(where: { $0.weight > 0 }) else {
            throw Invalid(message: "a journey needs a weight above 0")
        }
        guard case .array(let networkItems)? = document["networks"], !networkItems.isEmpty else {
            throw Invalid(
                message: "'networks' is a list of {\"ad_network_id\": \"…\", \"campaigns\": 12}, at least one")
        }
        networks = try networkItems.map { item throws(Invalid) in
            guard case .string(let id)? = item["ad_network_id"], !id.isEmpty else {
                throw Invalid(message: "each network names its 'ad_network_id'")
            }
            // What the postbacks will carry: an identifier as Apple writes them (`cstr6suwn9.skadnetwork`).
            guard id.utf8.count <= 255,
                id.utf8.allSatisfy({ $0.isASCIILetter || $0.isDigit || Array("._-".utf8).contains($0) })
            else {
                throw Invalid(
                    message: "an 'ad_network_id' is letters, digits, '.', '-' and '_' (cstr6suwn9.skadnetwork), "
                        + "at most 255, not '\(TerminalText.visible(id, oneLine: true))'")
            }
            let campaigns = try Self.number(item["campaigns"], "a network's 'campaigns'", default: 1, range: 1...900)
            guard campaigns == campaigns.rounded() else { throw Invalid(message: "'campaigns' is a whole number") }
            let weight = try Self.number(item["weight"], "a network's 'weight'", default: 1, range: 0...1e12)
            return Network(adNetworkID: id, campaigns: Int(campaigns), weight: weight)
        }
        var listed: Set<String> = []
        if let repeated = networks.first(where: { !listed.insert($0.adNetworkID).inserted }) {
            throw Invalid(
                message: "the network '\(repeated.adNetworkID)' is listed twice: list each once, with its campaigns "
                    + "and weight")
        }
        guard networks.contains(where: { $0.weight > 0 }) else {
            throw Invalid(message: "a network needs a weight above 0")
        }
        adAttributionKit = try Self.number(document["adattributionkit"], "'adattributionkit'", default: 0, range: 0...1)
        if let tierItem = document["tiers"] {
            guard case .object(let pairs) = tierItem else {
                throw Invalid(message: "'tiers' is an object of tier shares: {\"3\": 0.5, \"2\": 0.5}")
            }
            var shares: [PostbackDataTier: Double] = [:]
            for (name, value) in pairs {
                guard let tier = Int(name).flatMap(PostbackDataTier.init(rawValue:)) else {
                    throw Invalid(message: "'tiers' names tiers 0 to 3, not '\(name)'")
                }
                shares[tier] = try Self.number(value, "a tier's share", default: 0, range: 0...1e12)
            }
            guard shares.values.reduce(0, +) > 0 else { throw Invalid(message: "'tiers' needs a share above 0") }
            tiers = shares
        } else {
            tiers = nil
        }
    }

    private static func number(_ value: JSONDocument?, _ what: String, default: Double, range: ClosedRange<Double>)
        throws(Invalid) -> Double
    {
        guard let value else { return `default` }
        guard case .number(let number) = value, range.contains(number) else {
            throw Invalid(
                message: "\(what) is a number from \(Self.text(range.lowerBound)) to \(Self.text(range.upperBound))")
        }
        return number
    }

    private static func text(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }

    /// The tier mix of a campaign expected to bring `installs` installs: a model of Apple's crowd anonymity, whose
    /// thresholds Apple does not publish. Large campaigns mostly reach tier 3, small ones stay at tiers 0-1.
    public static func tiers(forInstalls installs: Double) -> [PostbackDataTier: Double] {
        switch installs {
        case 2000...: [.three: 0.9, .two: 0.1]
        case 500..<2000: [.three: 0.5, .two: 0.4, .one: 0.1]
        case 100..<500: [.two: 0.5, .one: 0.3, .zero: 0.2]
        default: [.one: 0.4, .zero: 0.6]
        }
    }
}
