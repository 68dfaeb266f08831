// libFuzzer target: any bytes as a journey for `skanc simulate`, through the Game schema: no crash, no hang, and
// every journey line (not blank, not a comment) gets a step or an error, never both, never neither.
import FuzzSupport
import SkanCompiler
import SkanSchema
import SkanSchemaTools

/// Compiled for every input, as the other targets do (a global's boxes would read as leaks).
func makeGameSchema() -> Schema {
    let text = """
        schema Game version 2
        event sign_up event purchase value USD event level
        flag registered at bit 0 when sign_up
        field revenue at bits 1...2 buckets amount of purchase within 48 hours { none = 0 0..<0.01 low = 1 0.01..<5 mid = 2 5..<20 high = 3 20... }
        field funnel at bits 3...4 { paid = 2 when purchase  late = 1 when hours >= 24  none = 0 otherwise }
        field levels at bit 5 buckets count of level in window { none = 0 0 some = 1 1... }
        coarse { high when purchase.count >= 2  medium when registered  low otherwise }
        lock window 1 after 36 hours
        """
    return SchemaCompiler.compile(text).schema!
}

/// One input; a crash, leak or failed check is a finding.
func fuzzJourney(_ input: UnsafeRawBufferPointer) -> Int32 {
    let bytes = Array(input)
    let simulation = JourneySimulation(schema: makeGameSchema(), journey: bytes)
    var lines = 0
    for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
        let trimmed = line.drop { $0 == 0x20 || $0 == 0x09 }
        let content = trimmed.reversed().drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
        if !content.isEmpty, trimmed.first != UInt8(ascii: "#") { lines += 1 }
    }
    guard simulation.steps.count + simulation.diagnostics.count == lines else {
        fatalError("\(lines) journey lines, \(simulation.steps.count) steps and \(simulation.diagnostics.count) errors")
    }
    _ = simulation.jsonLines
    return 0
}

runLibFuzzer { data, count in fuzzJourney(fuzzInput(data, count)) }
