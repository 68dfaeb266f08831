// libFuzzer target: any bytes as a schema artifact (`skanc compile`'s file, what an app reads over the air).
// `SchemaArtifact` either refuses them with a message or reads a schema whose every index and bit range is in
// range (the interpreter indexes with them), and writing what was read gives the bytes read back: the reader
// takes only canonical, hash-checked files.
import FuzzSupport
import SkanCompiler
import SkanCore
import SkanSchema
import SkanSchemaArtifact

/// One input; a crash, leak or failed check is a finding.
func fuzzArtifact(_ input: UnsafeRawBufferPointer) -> Int32 {
    let artifact: SchemaArtifact
    do {
        artifact = try SchemaArtifact(bytes: Array(input))
    } catch {
        guard !error.message.isEmpty else { fatalError("an artifact refused without a word") }
        return 0
    }
    let schema = artifact.schema
    for field in schema.fields {
        guard (0...5).contains(field.bits.lower), field.bits.upper <= 5, field.bits.lower <= field.bits.upper else {
            fatalError("a field outside the fine value: \(field.bits)")
        }
    }
    // What was read evaluates without trapping: every state of the fine value, at hour 0 with nothing logged.
    for fine in Schema.fineValueRange {
        let codes = schema.fields.map { (fine & $0.bits.mask) >> $0.bits.lower }
        for window in ConversionWindow.allCases {
            for rule in schema.coarseRules(window: window) { _ = rule.condition.holds(for: codes) }
            _ = schema.lockCondition(window: window)?.holds(for: codes)
        }
    }
    // Canonical files only: a file that reads writes itself back byte for byte (less the final line feed).
    let written = artifact.bytes
    guard Array(input) == written || Array(input) + [0x0A] == written else {
        fatalError("a file read that is not the canonical form of what it holds")
    }
    return 0
}

runLibFuzzer { data, count in fuzzArtifact(fuzzInput(data, count)) }
