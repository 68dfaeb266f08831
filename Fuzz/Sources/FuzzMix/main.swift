// libFuzzer target: any bytes as a `skanc simulate --postbacks --mix` file. `SimulationMix` either refuses them
// with a message saying what to write, or reads a mix within the bounds a run relies on: 1 to 100 journeys, each
// naming a file, with weights and keeps in range and one weight above 0; networks with an id, 1 to 900 whole
// campaigns and one weight above 0; shares from 0 to 1; tier shares with one above 0. Reading it again gives the
// same mix.
import FuzzSupport
import SkanPostbacks

/// One input; a crash, leak or failed check is a finding.
func fuzzMix(_ input: UnsafeRawBufferPointer) -> Int32 {
    let bytes = Array(input)
    let mix: SimulationMix
    do {
        mix = try SimulationMix(json: bytes)
    } catch {
        guard !error.message.isEmpty else { fatalError("a mix refused without a word") }
        return 0
    }
    guard (1...SimulationMix.limit).contains(mix.journeys.count),
        mix.journeys.allSatisfy({ !$0.file.isEmpty && (0...1e12).contains($0.weight) && (0...1).contains($0.keep) }),
        mix.journeys.contains(where: { $0.weight > 0 })
    else { fatalError("journeys out of bounds: \(mix.journeys)") }
    guard !mix.networks.isEmpty,
        mix.networks.allSatisfy({
            !$0.adNetworkID.isEmpty && (1...900).contains($0.campaigns) && (0...1e12).contains($0.weight)
        }),
        mix.networks.contains(where: { $0.weight > 0 })
    else { fatalError("networks out of bounds: \(mix.networks)") }
    guard (0...1).contains(mix.adAttributionKit) else { fatalError("a share out of 0...1") }
    if let tiers = mix.tiers {
        guard tiers.values.allSatisfy({ (0...1e12).contains($0) }), tiers.values.reduce(0, +) > 0 else {
            fatalError("tier shares out of bounds: \(tiers)")
        }
    }
    guard let again = try? SimulationMix(json: bytes), again.journeys == mix.journeys,
        again.networks == mix.networks, again.adAttributionKit == mix.adAttributionKit, again.tiers == mix.tiers
    else { fatalError("the same file read twice gives two mixes") }
    return 0
}

runLibFuzzer { data, count in fuzzMix(fuzzInput(data, count)) }
