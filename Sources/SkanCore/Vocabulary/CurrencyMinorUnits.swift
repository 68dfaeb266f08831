/// How many decimal digits a currency's minor unit has, as ISO 4217 (list one) gives them: 2 for USD and EUR
/// (cents), 0 for JPY and KRW, 3 for KWD and BHD, 4 for CLF and UYW.
///
/// Amounts of a currency with a minor unit are counted in whole minor units (`MinorUnitSum`), which makes a
/// strict bound an inclusive one (`< 10 USD` is `<= 9.99`) and lets reports print each currency as people write
/// it. Codes ISO 4217 gives no minor unit (gold, special drawing rights, the testing code) and codes it does not
/// list have none here: their amounts are summed as logged.
public enum CurrencyMinorUnits {
    /// The digits of `code`'s minor unit (upper-case ISO 4217 code); nil when it has none or is not listed.
    public static func digits(of code: String) -> Int? {
        if let exception = exceptions[code] { return exception }
        return twoDigitCodes.contains(code) ? 2 : nil
    }

    /// Whether `text` has the shape of an ISO 4217 code: three ASCII letters, in either case. What an imported
    /// configuration's currency must be before it is written into a schema (as `event ... value CODE`).
    public static func isCodeShaped(_ text: String) -> Bool {
        text.utf8.count == 3 && text.utf8.allSatisfy { (0x41...0x5A).contains($0 & 0xDF) }
    }

    /// Whether ISO 4217 lists `code` (upper case), with a minor unit or without one (XAU, XDR, XXX).
    public static func isListed(_ code: String) -> Bool {
        exceptions[code] != nil || twoDigitCodes.contains(code) || withoutMinorUnit.contains(code)
    }

    /// Every code ISO 4217 lists, sorted: what a misspelt code is compared with.
    public static var listedCodes: [String] {
        (Array(exceptions.keys) + twoDigitCodes + withoutMinorUnit).sorted()
    }

    /// Minor units per whole unit (100 for cents); nil where `digits(of:)` is.
    public static func unitsPerWhole(of code: String) -> Double? {
        digits(of: code).map { [1, 10, 100, 1_000, 10_000][$0] }
    }

    /// The codes whose minor unit is not two digits.
    private static let exceptions: [String: Int] = [
        "BIF": 0, "CLP": 0, "DJF": 0, "GNF": 0, "ISK": 0, "JPY": 0, "KMF": 0, "KRW": 0, "PYG": 0, "RWF": 0,
        "UGX": 0, "UYI": 0, "VND": 0, "VUV": 0, "XAF": 0, "XOF": 0, "XPF": 0,
        "BHD": 3, "IQD": 3, "JOD": 3, "KWD": 3, "LYD": 3, "OMR": 3, "TND": 3,
        "CLF": 4, "UYW": 4,
    ]

    /// The codes ISO 4217 lists with no minor unit: precious metals, units of account, testing and "no currency".
    private static let withoutMinorUnit: Set<String> = [
        "XAG", "XAU", "XBA", "XBB", "XBC", "XBD", "XDR", "XPD", "XPT", "XSU", "XTS", "XUA", "XXX",
    ]

    /// The codes with a two-digit minor unit: ISO 4217's current list, and codes withdrawn recently enough that
    /// stores may still report them (ANG, CUC, HRK, SLL, ZWL).
    private static let twoDigitCodes: Set<String> = [
        "AED", "AFN", "ALL", "AMD", "ANG", "AOA", "ARS", "AUD", "AWG", "AZN", "BAM", "BBD", "BDT", "BGN", "BMD",
        "BND", "BOB", "BOV", "BRL", "BSD", "BTN", "BWP", "BYN", "BZD", "CAD", "CDF", "CHE", "CHF", "CHW", "CNY",
        "COP", "COU", "CRC", "CUC", "CUP", "CVE", "CZK", "DKK", "DOP", "DZD", "EGP", "ERN", "ETB", "EUR", "FJD",
        "FKP", "GBP", "GEL", "GHS", "GIP", "GMD", "GTQ", "GYD", "HKD", "HNL", "HRK", "HTG", "HUF", "IDR", "ILS",
        "INR", "IRR", "JMD", "KES", "KGS", "KHR", "KPW", "KYD", "KZT", "LAK", "LBP", "LKR", "LRD", "LSL", "MAD",
        "MDL", "MGA", "MKD", "MMK", "MNT", "MOP", "MRU", "MUR", "MVR", "MWK", "MXN", "MXV", "MYR", "MZN", "NAD",
        "NGN", "NIO", "NOK", "NPR", "NZD", "PAB", "PEN", "PGK", "PHP", "PKR", "PLN", "QAR", "RON", "RSD", "RUB",
        "SAR", "SBD", "SCR", "SDG", "SEK", "SGD", "SHP", "SLE", "SLL", "SOS", "SRD", "SSP", "STN", "SVC", "SYP",
        "SZL", "THB", "TJS", "TMT", "TOP", "TRY", "TTD", "TWD", "TZS", "UAH", "USD", "USN", "UYU", "UZS", "VED",
        "VES", "WST", "XCD", "XCG", "YER", "ZAR", "ZMW", "ZWG", "ZWL",
    ]
}
