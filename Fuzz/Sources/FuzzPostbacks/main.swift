// libFuzzer target: bytes → `skanc postbacks` rows (CSV and JSON lines) with the Shop schema, and the CSV pass's
// `skanc report` in its four formats. Checks that every non-blank line gets exactly one row, that the summary
// adds up, that a reader without rows (a report's) counts the same, and that the report counts every line once:
// in a group when ok, by its status otherwise.
import FuzzSupport
import SkanCompiler
import SkanReports
import SkanSchema
import SkanSchemaTools

@testable import SkanPostbacks

/// Compiled for every input: a global would hold its indirect-enum boxes through tagged pointers, which
/// LeakSanitizer cannot follow, and it would report them as leaks.
func makeShopSchema() -> Schema {
    let text = """
        schema Shop version 3
        flag registered at bit 0
        field paymentTier at bits 1...2 { none = 0 low = 1 medium = 2 high = 3 }
        field dayOneAction at bits 3...4 { none = 0 browsed = 1 addedToCart = 2 ordered = 3 }
        reserved bit 5
        coarse { high when paymentTier >= medium  medium when registered or dayOneAction >= addedToCart  low otherwise }
        lock window 1 when paymentTier == high
        """
    return SchemaCompiler.compile(text).schema!
}

/// One input; a crash, leak or failed check is a finding.
func fuzzPostbacks(_ input: UnsafeRawBufferPointer) -> Int32 {
    let count = input.count
    let bytes = input
    let shopSchema = makeShopSchema()
    // One input in sixteen also goes through two threads. Not more: worker threads allocate memory that
    // outlives the input, and libFuzzer then runs a slow leak check after it.
    let parallel = count % 16 == 0
    for format in PostbackFormat.allCases {
        let output = NewlineCounter()
        let options = PostbackReader.Options {
            ($0.format, $0.chunkBytes, $0.duplicateCapacity) = (format, 64, 8)
            $0.threads = format == .csv && parallel ? 2 : 1
            if format == .csv { $0.grouping = PostbackReader.Grouping(groupings: [.campaign, .countryCode]) }
        }
        let reader = PostbackReader(schema: shopSchema, options: options, output: output)
        var input = ByteArrayInput(Array(bytes), chunk: max(1, count / 3))
        try! reader.read(&input, name: "fuzz")
        let newlines = output.newlines
        let summary = reader.summary
        let problems = PostbackStatus.allCases.filter { $0 != .ok }.map { summary.count(of: $0) }.reduce(0, +)
        guard summary.read == summary.ok + problems else { fatalError("summary does not add up") }
        guard newlines == summary.read else { fatalError("\(summary.read) lines read, \(newlines) rows written") }
        if let tally = reader.tally {
            // A report's reader renders no rows; it must count exactly what this one counted.
            var countingOptions = options
            countingOptions.writesRows = false
            let counting = PostbackReader(schema: shopSchema, options: countingOptions, output: output)
            var again = ByteArrayInput(Array(bytes), chunk: max(1, count / 3))
            try! counting.read(&again, name: "fuzz")
            guard output.newlines == newlines, counting.summary.text == summary.text, let other = counting.tally,
                other.keys == tally.keys,
                tally.keys.indices.allSatisfy({ other.windows(ofGroup: $0) == tally.windows(ofGroup: $0) })
            else { fatalError("a reader without rows counts differently") }
            let report = PostbackReport(tally: tally, summary: summary, versions: LiveVersions([shopSchema]))
            let grouped = report.groups.reduce(0) { $0 + $1.postbacks }
            guard grouped == summary.ok, grouped + report.notOK.reduce(0, { $0 + $1.rows }) == summary.read else {
                fatalError("the report counts \(grouped) ok rows of \(summary.ok)")
            }
            // Rendered for one input in sixteen: the page and its charts cost more than decoding a small input.
            if count % 16 == 1 {
                for format in ReportFormat.allCases where format.render(report).isEmpty {
                    fatalError("empty \(format)")
                }
            }
        }
    }
    return 0
}

/// Counts the rows written.
final class NewlineCounter: PostbackOutput {
    var newlines = 0
    func write<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
        newlines += bytes.filter { $0 == 0x0A }.count
    }
}

runLibFuzzer { data, count in fuzzPostbacks(fuzzInput(data, count)) }
