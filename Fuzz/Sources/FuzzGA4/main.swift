// libFuzzer target: any bytes as a GA4 conversion value schema for `skanc import ga4`, and as a Google Ads one
// for `skanc import google-ads` (Meta's configuration has FuzzMeta): no crash, no hang; every error a schema gives at a key path; and when its import compiles, the imported schema gives what GA4 computes (first match of each window's entries) on a journey that
// logs each of its events in turn, amounts on the bounds it names.
import FuzzSupport
import SkanCompiler
import SkanCore
import SkanPlatforms
import SkanSchema
import SkanSchemaTools

/// The input as a Google Ads resource: every error at a key path, and an import that compiles formats.
func fuzzGoogleAds(_ input: UnsafeRawBufferPointer) {
    guard let source = try? GoogleAdsSchema.read(Array(input)) else { return }
    let imported = GoogleAdsImport(source, name: "Fuzzed", currency: "USD", file: "fuzz")
    guard !imported.diagnostics.contains(where: { $0.severity == .error }) else { return }
    let compiled = imported.imported.compile()
    guard compiled.errors.allSatisfy({ $0.location == nil && $0.subject != nil }) else {
        fatalError("a Google Ads import error is not at a key path: \(compiled.errors)")
    }
    if compiled.schema != nil, SchemaFormatter.format(imported.text) == nil {
        fatalError("an imported Google Ads schema that compiles does not format:\n\(imported.text)")
    }
}

/// One input; a crash, leak or failed check is a finding.
func fuzzGA4(_ input: UnsafeRawBufferPointer) -> Int32 {
    fuzzGoogleAds(input)
    guard let source = try? GA4Schema.read(Array(input)) else { return 0 }
    let imported = GA4Import(source, name: "Fuzzed", currency: "USD", file: "fuzz")
    guard imported.diagnostics.isEmpty else { return 0 }
    let compiled = imported.imported.compile()
    guard compiled.errors.allSatisfy({ $0.location == nil && $0.subject != nil }) else {
        fatalError("an import error is not at a key path: \(compiled.errors)")
    }
    guard let text = SchemaFormatter.format(imported.text), let schema = compiled.schema else { return 0 }
    var amounts: [Double] = [0, 1]
    for window in ConversionWindow.allCases {
        for value in source.conversionValues(in: window) {
            for mapping in value.eventMappings {
                amounts += [mapping.minEventValue, mapping.maxEventValue].compactMap { $0 }.filter { $0 >= 0 }
            }
        }
    }
    var activity = Activity()
    for step in 0..<(schema.events.count * 3) {
        let event = step % max(schema.events.count, 1)
        let amount = schema.events[event].hasValue ? amounts[step % amounts.count] : nil
        let hour = Double(step) * 7
        activity.events.append(LoggedEvent(event: event, hour: hour, amount: amount))
        let mine = schema.evaluate(activity, at: hour)
        guard let window = mine.window else { break }
        let logged = activity.events
        let chosen = source.selected(
            in: window, count: { name in Double(logged.filter { schema.events[$0.event].name == name }.count) },
            sum: { name in logged.filter { schema.events[$0.event].name == name }.reduce(0) { $0 + ($1.amount ?? 0) } })
        let fineAgrees = window != .first || mine.fineValue == chosen?.fineValue ?? 0
        // Where no entry holds, GA4 sends nothing, and so does the imported schema.
        guard fineAgrees, mine.sends == (chosen != nil), mine.coarseValue == chosen?.coarseValue,
            mine.lock == chosen?.lockEnabled ?? false
        else {
            fatalError("the import disagrees with GA4 at hour \(hour) in window \(window.number):\n\(text)")
        }
    }
    return 0
}

runLibFuzzer { data, count in fuzzGA4(fuzzInput(data, count)) }
