import SkanReports
import Testing

/// Amounts are exact: bounds as written, totals as integers of units, text without binary rounding.
@Suite struct DecimalAmountTests {
    @Test func boundsAreReadAsWritten() throws {
        let cent = try #require(DecimalAmount("0.01", scale: 3))
        #expect(cent.units == 10 && cent.text == "0.01")
        #expect(try #require(cent.times(3)).text == "0.03")
        #expect(DecimalAmount("4.99", scale: 3)?.units == 4990)
        #expect(DecimalAmount("20", scale: 3)?.text == "20")
        #expect(DecimalAmount("0", scale: 0)?.text == "0")
    }

    @Test func midPointsAreExactAtOneMoreDigit() throws {
        let (low, high) = (try #require(DecimalAmount("0.01", scale: 3)), try #require(DecimalAmount("5", scale: 3)))
        #expect(DecimalAmount.midpoint(low, high)?.text == "2.505")
        var sum: DecimalAmount? = DecimalAmount(units: 0, scale: 3)
        for _ in 0..<1000 { sum = sum?.plus(low) }
        #expect(sum?.text == "10", "a thousand cents are ten, not 9.999999999999831")
    }

    @Test func whatCannotBeHeldIsRefusedNotTrapped() {
        #expect(DecimalAmount("0.001", scale: 2) == nil, "more fraction digits than the scale")
        #expect(DecimalAmount("99999999999999999999", scale: 2) == nil)
        #expect(DecimalAmount("1e3", scale: 2) == nil && DecimalAmount("-1", scale: 2) == nil)
        #expect(DecimalAmount(units: Int.max / 2, scale: 2).times(3) == nil)
        #expect(DecimalAmount(units: Int.max, scale: 2).plus(DecimalAmount(units: 1, scale: 2)) == nil)
    }
}
