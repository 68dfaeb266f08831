import SkanCore
import SkanPostbacks

extension DecodeSQL {
    /// The cells whose numbers are read as `JSONInteger` reads them: those checked against a range,
    /// `source-app-id`, whose 0 marks a test postback, and the app's ID where it picks the schemas.
    var exactNumberCells: [String] { Self.ranges.map(\.cell) + ["source_app"] + (catalog.routesByApp ? ["app"] : []) }

    /// The keys of `exactNumberCells`: every engine decides on the number's JSON text, never on a double.
    var exactNumberKeys: [PostbackKey] {
        let checked = Set(exactNumberCells)
        var keys: [PostbackKey] = []
        for cell in Self.cells where checked.contains(cell.name) {
            for key in [cell.skadnetwork, cell.adAttributionKit?.key].compactMap({ $0 }) where !keys.contains(key) {
                keys.append(key)
            }
        }
        return keys
    }

    /// The text of member `key` as the engine gives it (`engineText`), or, for an engine that rewrites numbers
    /// (`WarehouseDialect.rewritesNumbers`), the token as sent in `source`, the raw JSON text: taken when the key
    /// is written there exactly once and the token is the same number as the engine's. The comparison is asked
    /// only then, so that PostgreSQL casts nothing but a number of the document.
    func exactNumberText(_ engineText: String, type: String, key: PostbackKey, in source: String) -> String {
        guard dialect.rewritesNumbers else { return engineText }
        let quoted = "\"" + String(describing: key.name) + "\""
        let token = dialect.numberToken(after: quoted, in: source)
        let once = "length(\(source)) - length(replace(\(source), \(dialect.literal(quoted)), '')) = \(quoted.count)"
        let same = dialect.sameNumber(token, engineText)
        return """
            CASE WHEN \(type) = 'number' AND \(Self.known(once)) THEN \
            CASE WHEN \(Self.known(same)) THEN \(token) ELSE \(engineText) END ELSE \(engineText) END
            """
    }

    /// `<name>_n`, the number's value when it is whole and has at most 18 digits, and `<name>_fraction`,
    /// whether it is not whole, from the text of a JSON number exactly as `JSONInteger` reads it: the number is
    /// its significand (digits, leading and trailing zeros dropped) times ten to a scale (the exponent, less
    /// the digits after the point, plus the trailing zeros dropped); it is whole when the scale is not negative.
    /// Three stages, each naming what the next reads.
    func exactNumberStages(from source: String) -> [Stage] {
        let names = exactNumberCells
        let split = names.flatMap { name -> [String] in
            let text = "\(name)_v"
            let unsigned = "CASE WHEN substr(\(text), 1, 1) = '-' THEN substr(\(text), 2) ELSE \(text) END"
            let lower = "lower(\(unsigned))"
            let exponentAt = dialect.position("'e'", in: lower)
            let mantissa = "CASE WHEN \(exponentAt) > 0 THEN substr(\(lower), 1, \(exponentAt) - 1) ELSE \(lower) END"
            let exponent = "CASE WHEN \(exponentAt) > 0 THEN substr(\(lower), \(exponentAt) + 1) ELSE '0' END"
            return [
                "CASE WHEN substr(\(text), 1, 1) = '-' THEN -1 ELSE 1 END AS \(name)_sign",
                "\(mantissa) AS \(name)_mantissa", "\(exponent) AS \(name)_exponent",
            ]
        }
        let digits = names.flatMap { name -> [String] in
            let (mantissa, exponent) = ("\(name)_mantissa", "\(name)_exponent")
            let pointAt = dialect.position("'.'", in: mantissa)
            let whole = "CASE WHEN \(pointAt) > 0 THEN substr(\(mantissa), 1, \(pointAt) - 1) ELSE \(mantissa) END"
            let fraction = dialect.trimEnd(
                "CASE WHEN \(pointAt) > 0 THEN substr(\(mantissa), \(pointAt) + 1) ELSE '' END", "'0'")
            let exponentSign = "CASE WHEN substr(\(exponent), 1, 1) = '-' THEN -1 ELSE 1 END"
            let exponentDigits = dialect.trimStart(
                "CASE WHEN substr(\(exponent), 1, 1) IN ('-', '+') THEN substr(\(exponent), 2) ELSE \(exponent) END",
                "'0'")
            // Beyond a billion only the exponent's sign matters, as in JSONInteger.
            let exponentValue = """
                \(exponentSign) * CASE WHEN length(\(exponentDigits)) > 9 THEN 1000000000 \
                WHEN \(exponentDigits) = '' THEN 0 ELSE \(dialect.integer(exponentDigits)) END
                """
            let significand = dialect.trimStart("\(whole) || \(fraction)", "'0'")
            return [
                "\(significand) AS \(name)_digits", "length(\(fraction)) AS \(name)_fraction_digits",
                "\(exponentValue) AS \(name)_exponent_value",
            ]
        }
        let value = names.flatMap { name -> [String] in
            let digits = "\(name)_digits"
            let significand = dialect.trimEnd(digits, "'0'")
            let scale = "\(name)_exponent_value - \(name)_fraction_digits + length(\(digits)) - length(\(significand))"
            let zeros = "substr('000000000000000000', 1, CAST(\(scale) AS INT))"
            let number = """
                CASE WHEN \(name)_v IS NULL THEN NULL WHEN \(digits) = '' THEN 0 \
                WHEN \(scale) >= 0 AND length(\(significand)) + \(scale) <= \(JSONInteger.maximumDigits) \
                THEN \(name)_sign * \(dialect.integer("\(significand) || \(zeros)")) END
                """
            return [
                "\(number) AS \(name)_n",
                "\(Self.known("\(name)_v IS NOT NULL AND \(digits) <> '' AND \(scale) < 0")) AS \(name)_fraction",
            ]
        }
        // Each stage names the previous one's columns several times: SQLite, which inlines a stage into the
        // next, would repeat the whole chain of expressions behind each name, so there each is computed once.
        var stages = [
            stage("skanc_number_parts", ["*"] + split, from: source),
            stage("skanc_number_digits", ["*"] + digits, from: "skanc_number_parts"),
            stage("skanc_numbers", ["*"] + value, from: "skanc_number_digits"),
        ]
        for index in stages.indices { stages[index].materialized = dialect == .sqlite }
        return stages
    }
}
