import Foundation
// libFuzzer target: any bytes as a localized strings file and as a string catalog, through the readers `skanc
// plist check` gives InfoPlist.strings and InfoPlist.xcstrings files: no crash, no hang, and every value read is
// judged (`UsageDescription`) without a crash either.
import FuzzSupport

@testable import SkanInfoPlist

/// One input; a crash, leak or failed check is a finding.
func fuzzStrings(_ input: UnsafeRawBufferPointer) -> Int32 {
    let data = Data(input)
    let key = "NSUserTrackingUsageDescription"
    if let pairs = try? LocalizedStrings.stringsValues(of: key, in: data) {
        for pair in pairs {
            if pair.line < 1 { fatalError("a value before line 1") }
            _ = UsageDescription.problem(of: pair.value)
        }
    }
    if let entries = try? LocalizedStrings.catalogValues(of: key, in: data) {
        for entry in entries { _ = UsageDescription.problem(of: entry.value) }
    }
    return 0
}

runLibFuzzer { data, count in fuzzStrings(fuzzInput(data, count)) }
