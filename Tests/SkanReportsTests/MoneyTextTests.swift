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

/// Each currency with its own decimals (ISO 4217), rounded so that an interval still holds what it held.
struct CurrencyDecimalsTests {
    @Test func eachCurrencyPrintsItsOwnDecimals() {
        let midpoint = DecimalAmount(units: 2_505, scale: 3)
        #expect(PostbackReport.money(midpoint, in: "USD") == "2.51")
        #expect(PostbackReport.money(midpoint, in: "KWD") == "2.505")
        #expect(PostbackReport.money(midpoint, in: "CLF") == "2.5050")
        #expect(PostbackReport.money(midpoint, in: "JPY") == "3")
        #expect(PostbackReport.money(DecimalAmount(units: 1_234_500, scale: 1), in: "JPY") == "123,450")
        #expect(PostbackReport.money(DecimalAmount(units: 20, scale: 0), in: "EUR") == "20.00")
        // No minor unit, or no currency: the report's own scale, at least two decimals, as before.
        #expect(PostbackReport.money(midpoint, in: "XAU") == "2.505")
        #expect(PostbackReport.money(midpoint) == "2.505")
    }

    @Test func boundsMoveOutwardAndMidPointsToTheNearest() {
        let amount = DecimalAmount(units: 12_345, scale: 1)  // 1,234.5
        #expect(PostbackReport.money(amount, in: "JPY", .down) == "1,234")
        #expect(PostbackReport.money(amount, in: "JPY", .up) == "1,235")
        #expect(PostbackReport.money(amount, in: "JPY") == "1,235")
        let negative = DecimalAmount(units: -12_345, scale: 1)
        #expect(PostbackReport.money(negative, in: "JPY", .down) == "-1,235")
        #expect(PostbackReport.money(negative, in: "JPY", .up) == "-1,234")
        #expect(PostbackReport.money(negative, in: "JPY") == "-1,235")
        #expect(PostbackReport.money(DecimalAmount(units: 12_341, scale: 1), in: "JPY") == "1,234")
    }
}
