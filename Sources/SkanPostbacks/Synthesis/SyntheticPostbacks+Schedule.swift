import SkanCore
public import SkanSchema

extension SyntheticPostbacks {
    /// How long a device may go without fetching a new manifest: up to three days offline.
    static let longestOffline = 72.0

    /// The postbacks of `options.users` users while the schema changes over the air (`skanc simulate
    /// --schedule`). Each user installs at a random hour of the first `days` days, with a random install ID;
    /// half the devices hold the manifest of that hour, the others one fetched up to three days before (devices
    /// go offline at random). The install's conversion keeps the version it started with
    /// (`schema(hour, installID)` at the hour the device last fetched) for all three windows, as the runtime's
    /// safe points keep it. With AdAttributionKit, one user in four re-engages 1 to 20 days after installing: a
    /// new conversion that takes the version of its own start. Each truth says the version that set its values.
    /// Users keep each journey line with probability 1/2, as in `generate`. Returns the journey's bad lines in
    /// the bundled schema `schema(0, "")` would report (the command checks every version first).
    public static func generate(
        journey: [UInt8], days: Double, options: Options,
        schema: (_ hour: Double, _ installID: String) -> Schema,
        emit: (_ line: String, _ truth: Truth) -> Void
    ) {
        var random = SplitMix64(seed: options.seed)
        let read = JourneySimulation.read(journey)
        let campaignIDs = campaignIdentifiers(options, random: &random)
        let journeyLineCount = journey.split(separator: 0x0A, omittingEmptySubsequences: false).count
        func conversion(at hour: Double, installID: String, random: inout SplitMix64) -> JourneySimulation {
            let fetched = uniform(&random) < 0.5 ? hour : hour - uniform(&random) * longestOffline
            let kept = (0..<journeyLineCount).map { _ in random.next() % 2 == 0 }
            return JourneySimulation(
                schema: schema(fetched, installID), lines: read.lazy.filter { kept[$0.number - 1] })
        }
        run(options: options, random: &random, emit: emit) { _, random in
            let installID = uuid(&random)
            let installHour = uniform(&random) * days * 24
            let install = conversion(at: installHour, installID: installID, random: &random)
            let tier = Self.tier(options.tiers, &random)
            var user = User(
                simulation: install, tier: tier, campaign: campaign(of: campaignIDs, random: &random),
                adNetworkID: options.adNetworkID, framework: options.framework, versioned: true)
            if options.framework == .adAttributionKit, random.next() % 4 == 0 {
                let later = installHour + 24 + uniform(&random) * 19 * 24
                user.reengagement = conversion(at: later, installID: installID, random: &random)
            }
            return user
        }
    }
}
