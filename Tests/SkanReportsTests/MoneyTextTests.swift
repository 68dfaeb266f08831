import Testing

@testable import SkanReports

/// Amounts as the Markdown and HTML reports print them.
struct MoneyTextTests {
    @Test func oneNumberOfDecimalsAndThousandsSeparated() {
        #expect(PostbackReport.money(DecimalAmount(units: 5, scale: 3)) == "0.005")
        #expect(PostbackReport.money(DecimalAmount(units: 10, scale: 3)) == "0.010")
        #expect(PostbackReport.money(DecimalAmount(units: 1_234_567_8, scale: 1)) == "1,234,567.80")
        #expect(PostbackReport.money(DecimalAmount(units: 0, scale: 0)) == "0.00")
        #expect(PostbackReport.money(DecimalAmount(units: -1_234_500, scale: 2)) == "-12,345.00")
        #expect(PostbackReport.money(DecimalAmount(units: 999, scale: 2)) == "9.99")
    }
}
