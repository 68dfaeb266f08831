import Testing

@testable import SkanWarehouse

/// The names a user gives `skanc sql`: refused, never escaped, when they could end a header comment.
struct SQLNameTests {
    @Test(arguments: ["postback_lines", "raw lines", "naïve", "a.b", "\"quoted\""])
    func ordinaryNamesPass(_ name: String) {
        #expect(SQLName.problem(with: name, qualified: true) == nil)
    }

    @Test func emptyAndControlNamesAreRefusedWithWhatToType() {
        #expect(SQLName.problem(with: "", qualified: false) == "is empty: give a name")
        #expect(
            SQLName.problem(with: "a\nb", qualified: false)?.hasPrefix("holds the control character U+000A") == true)
        #expect(SQLName.problem(with: "a\u{2028}b", qualified: false)?.contains("U+2028") == true)
        #expect(SQLName.problem(with: "a\u{85}b", qualified: false)?.contains("U+0085") == true)
    }

    @Test func qualifiedNamesNeedEveryPart() {
        for name in [".a", "a.", "a..b"] {
            #expect(SQLName.problem(with: name, qualified: true)?.hasPrefix("has an empty part") == true, "\(name)")
            #expect(SQLName.problem(with: name, qualified: false) == nil, "\(name): a view name is one part")
        }
    }
}
