public import SkanCore
public import SkanSchema

extension SyntheticPostbacks {
    /// A campaign of a mix: its network, its four-digit source identifier, its share of users and its tiers.
    public struct MixCampaign: Sendable, Equatable {
        /// The network that runs it.
        public var adNetworkID: String
        /// Its four-digit source identifier (unique within its network; two networks may share one).
        public var sourceIdentifier: String
        /// Its share of all users, 0 to 1.
        public var share: Double
        /// Its users' tier mix.
        public var tiers: [PostbackDataTier: Double]
    }

    /// The campaigns of `mix` for `users` users, drawn with `random`: each network's share of users (by weight)
    /// spread over its campaigns as 1, 1/2, 1/3, … (a few large campaigns and a long tail, as a studio's are),
    /// each campaign's tiers those of its expected installs (`SimulationMix.tiers(forInstalls:)`) unless the mix
    /// gives one mix for all.
    static func campaigns(of mix: SimulationMix, users: Int, random: inout SplitMix64) -> [MixCampaign] {
        let networkWeights = mix.networks.reduce(0) { $0 + $1.weight }
        var campaigns: [MixCampaign] = []
        for network in mix.networks {
            let harmonic = (1...network.campaigns).reduce(0.0) { $0 + 1 / Double($1) }
            var identifiers: Set<String> = []
            for rank in 1...network.campaigns {
                var identifier = String(1000 + random.next() % 9000)
                while identifiers.contains(identifier) { identifier = String(1000 + random.next() % 9000) }
                identifiers.insert(identifier)
                let share = network.weight / networkWeights / Double(rank) / harmonic
                campaigns.append(
                    MixCampaign(
                        adNetworkID: network.adNetworkID, sourceIdentifier: identifier, share: share,
                        tiers: mix.tiers ?? SimulationMix.tiers(forInstalls: share * Double(users))))
            }
        }
        return campaigns
    }

    /// The postbacks of `options.users` users drawn from `mix`: each user picks a journey by weight (of
    /// `journeys`, the files' bytes in the mix's order) and keeps each of its lines with the journey's `keep`,
    /// picks a campaign by share, a tier from the campaign's mix and AdAttributionKit with the mix's share. The
    /// options' tiers, campaigns, network and framework are the mix's to give. Returns each journey's bad lines.
    public static func generate(
        schema: Schema, mix: SimulationMix, journeys: [[UInt8]], options: Options,
        emit: (_ line: String, _ truth: Truth) -> Void
    ) -> [[Diagnostic]] {
        var random = SplitMix64(seed: options.seed)
        let read = journeys.map { JourneySimulation.read($0) }
        let lineCounts = journeys.map { $0.split(separator: 0x0A, omittingEmptySubsequences: false).count }
        let campaigns = Self.campaigns(of: mix, users: options.users, random: &random)
        let journeyChoice = Cumulative(mix.journeys.map(\.weight))
        let campaignChoice = Cumulative(campaigns.map(\.share))
        run(options: options, random: &random, emit: emit) { _, random in
            let journey = journeyChoice.pick(&random)
            let keep = mix.journeys[journey].keep
            let kept = keep >= 1 ? nil : (0..<lineCounts[journey]).map { _ in Self.uniform(&random) < keep }
            let lines = read[journey].lazy.filter { kept?[$0.number - 1] ?? true }
            let campaign = campaigns[campaignChoice.pick(&random)]
            let tier = Self.tier(campaign.tiers, &random)
            let framework: Options.AttributionFramework =
                Self.uniform(&random) < mix.adAttributionKit ? .adAttributionKit : .skAdNetwork
            return User(
                simulation: JourneySimulation(schema: schema, lines: lines), tier: tier,
                campaign: campaign.sourceIdentifier, adNetworkID: campaign.adNetworkID, framework: framework)
        }
        return read.map { JourneySimulation(schema: schema, lines: $0).diagnostics }
    }

    /// A number in 0..<1 from 53 random bits.
    static func uniform(_ random: inout SplitMix64) -> Double {
        Double(random.next() >> 11) * 0x1p-53
    }

    /// A choice by weight: the running totals, searched by halves.
    struct Cumulative {
        let totals: [Double]

        init(_ weights: [Double]) {
            var sum = 0.0
            totals = weights.map {
                sum += $0
                return sum
            }
        }

        /// An index whose chance is its weight's share.
        func pick(_ random: inout SplitMix64) -> Int {
            let draw = SyntheticPostbacks.uniform(&random) * totals[totals.count - 1]
            var (low, high) = (0, totals.count - 1)
            while low < high {
                let middle = (low + high) / 2
                if totals[middle] > draw { high = middle } else { low = middle + 1 }
            }
            return low
        }
    }
}
