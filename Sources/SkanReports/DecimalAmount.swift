/// An amount held exactly, as a whole number of units of 10^-scale, so that totals are range arithmetic on the
/// schema's bounds as written (`0.01`, `4.99`) with no binary rounding, and the warehouse views, which compute
/// them the same way, give the same figures. Arithmetic reports overflow rather than trapping.
public struct DecimalAmount: Hashable, Sendable, Comparable {
    /// The amount in units of 10^-scale.
    public var units: Int
    /// Digits after the decimal point that `units` carries.
    public var scale: Int

    /// `units` × 10^-`scale`.
    public init(units: Int, scale: Int) {
        self.units = units
        self.scale = scale
    }

    /// A bound as the schema writes it (digits, an optional `.` and fraction digits) at `scale`; nil when it has
    /// more fraction digits than `scale` or does not fit.
    public init?(_ text: String, scale: Int) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let whole = Int(parts[0]), whole >= 0 else { return nil }
        let fraction = parts.count == 2 ? String(parts[1]) : ""
        guard fraction.count <= scale, fraction.allSatisfy(\.isASCIIDigit) else { return nil }
        let padded = fraction + String(repeating: "0", count: scale - fraction.count)
        guard let power = Self.power(scale), let fractionUnits = padded.isEmpty ? 0 : Int(padded) else { return nil }
        let (scaled, overflow) = whole.multipliedReportingOverflow(by: power)
        guard !overflow else { return nil }
        let (units, carry) = scaled.addingReportingOverflow(fractionUnits)
        guard !carry else { return nil }
        self.init(units: units, scale: scale)
    }

    /// `value` in units of 10^-`scale`, rounded half away from zero; nil when it is not finite or does not fit
    /// (an estimate or a sum of doubles, written back as an amount).
    public init?(rounding value: Double, scale: Int) {
        let units = (value * Double(Self.power(scale) ?? 1)).rounded()
        guard units.isFinite, abs(units) < 9e15 else { return nil }
        self.init(units: Int(units), scale: scale)
    }

    /// 10^`exponent`, when it fits.
    static func power(_ exponent: Int) -> Int? {
        guard exponent >= 0 else { return nil }
        var value = 1
        for _ in 0..<exponent {
            let (next, overflow) = value.multipliedReportingOverflow(by: 10)
            guard !overflow else { return nil }
            value = next
        }
        return value
    }

    /// `self` × `count`, or nil when it does not fit.
    public func times(_ count: Int) -> DecimalAmount? {
        let (units, overflow) = self.units.multipliedReportingOverflow(by: count)
        return overflow ? nil : DecimalAmount(units: units, scale: scale)
    }

    /// `self` + `other` (same scale), or nil when it does not fit.
    public func plus(_ other: DecimalAmount) -> DecimalAmount? {
        precondition(scale == other.scale, "amounts of one report share a scale")
        let (units, overflow) = self.units.addingReportingOverflow(other.units)
        return overflow ? nil : DecimalAmount(units: units, scale: scale)
    }

    /// The mid-point of two amounts; exact when their sum's last unit is even (bounds parsed at one more digit
    /// than they are written with always are).
    public static func midpoint(_ low: DecimalAmount, _ high: DecimalAmount) -> DecimalAmount? {
        low.plus(high).map { DecimalAmount(units: $0.units / 2, scale: $0.scale) }
    }

    /// Which way an amount moves to fewer decimals: a lower bound down, an upper bound up, a mid-point or an
    /// estimate to the nearest (half away from zero), so that a printed interval still holds what it held.
    public enum Rounding: Sendable {
        case down, nearest, up
    }

    /// The amount at `decimals` digits after the point, moved `rounding`'s way; itself when it has no more.
    public func rounded(toDecimals decimals: Int, _ rounding: Rounding) -> DecimalAmount {
        guard decimals < scale, let step = Self.power(scale - decimals) else { return self }
        let remainder = units % step
        var quotient = units / step
        switch rounding {
        case .down: if remainder < 0 { quotient -= 1 }
        case .up: if remainder > 0 { quotient += 1 }
        case .nearest: if 2 * remainder.magnitude >= step.magnitude { quotient += remainder < 0 ? -1 : 1 }
        }
        return DecimalAmount(units: quotient, scale: decimals)
    }

    /// The amount as decimal text, without trailing zeros: `2.505`, `20`, `0`.
    public var text: String {
        let negative = units < 0
        let magnitude = units.magnitude
        let power = UInt(Self.power(scale) ?? 1)
        let whole = magnitude / power
        var fraction = String(magnitude % power)
        fraction = String(repeating: "0", count: max(0, scale - fraction.count)) + fraction
        while fraction.last == "0" { fraction.removeLast() }
        return (negative ? "-" : "") + String(whole) + (fraction.isEmpty ? "" : "." + fraction)
    }

    /// The amount as a `Double`, for drawing.
    public var doubleValue: Double { Double(units) / Double(Self.power(scale) ?? 1) }

    /// Orders amounts of one scale by value.
    public static func < (lhs: DecimalAmount, rhs: DecimalAmount) -> Bool { lhs.units < rhs.units }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
