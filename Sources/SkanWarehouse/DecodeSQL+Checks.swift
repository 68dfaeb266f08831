import SkanPostbacks

extension DecodeSQL {
    /// Apple's versions by the text of `version`; a line without one is 1.0.
    static let versionTexts: [(text: String, version: PostbackRules.SKAdNetworkVersion)] = [
        ("1.0", .v1), ("2.0", .v2), ("2.1", .v2point1), ("2.2", .v2point2), ("3.0", .v3), ("4.0", .v4),
    ]

    /// AdAttributionKit's `conversion-type` texts, as a list for `IN (...)` (all plain ASCII words).
    static let conversionTypeTexts = PostbackRules.conversionTypes.map { "'\($0.text)'" }.joined(separator: ", ")

    /// The row's `conversion_type` cell for a `conversion-type` text: its one spelling, or NULL.
    static let conversionTypeCell =
        "CASE conversion_type_v "
        + PostbackRules.conversionTypes.map { "WHEN '\($0.text)' THEN '\($0.cell)' " }.joined() + "END"

    /// The letters a country code is made of.
    static let asciiLetters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

    /// The derived values (`version_known`, `window_number`, `publisher_v`), then the status before the
    /// duplicate check: one CASE in `PostbackStatus` order, each problem stated as the decoder checks it.
    func checkStages() -> [Stage] {
        let knownVersions = Self.versionTexts.dropFirst().map { "'\($0.text)'" }.joined(separator: ", ")
        let derived = [
            "CASE WHEN aak OR NOT decoded THEN NULL WHEN lt_version IS NULL THEN '1.0' WHEN version_v IN (\(knownVersions)) THEN version_v END AS version_known",
            "CASE WHEN sequence_n BETWEEN 0 AND 2 THEN sequence_n + 1 ELSE 1 END AS window_number",
            "CASE WHEN aak THEN publisher_item_v WHEN source_app_v IS NOT NULL THEN source_app_v ELSE source_domain_v END AS publisher_v",
            "CASE WHEN aak THEN CASE WHEN publisher_item_v IS NOT NULL THEN 'app' END WHEN source_app_v IS NOT NULL THEN 'app' WHEN source_domain_v IS NOT NULL THEN 'web' END AS publisher_kind",
            // A source identifier of two to four ASCII digits (`bad-source-identifier`, `source_digits`).
            "\(Self.known("length(source_v) BETWEEN 2 AND 4 AND \(dialect.trimBoth("source_v", "'0123456789'")) = ''")) AS source_digits_ok",
            // A country code of two ASCII letters (`wrong-type` otherwise, and no `country_code`).
            "\(Self.known("length(country_v) = 2 AND \(dialect.trimBoth("country_v", "'\(Self.asciiLetters)'")) = ''")) AS country_ok",
        ]
        let checked = [
            "CASE\n"
                + statusCases().map { "      WHEN \(Self.known($0.condition)) THEN '\($0.status.code)'" }.joined(
                    separator: "\n")
                + "\n      ELSE 'ok' END AS status_checked"
        ]
        let lookup = lookupColumns()
        return [
            stage("skanc_derived", lookup.columns + derived, from: lookup.source),
            stage("skanc_checked", ["*"] + checked, from: "skanc_derived"),
        ]
    }

    /// Each problem's condition, in order of precedence (`duplicate` comes last, in the final select).
    func statusCases() -> [(status: PostbackStatus, condition: String)] {
        let skan = "NOT aak"
        func any(_ keys: [PostbackKey], _ prefix: String) -> String {
            keys.isEmpty
                ? "FALSE"
                : "(" + keys.map { "\(prefix)_\(Self.column($0)) IS NOT NULL" }.joined(separator: " OR ") + ")"
        }
        func anyMissing(_ keys: [PostbackKey], _ prefix: String) -> String {
            keys.isEmpty
                ? "FALSE" : "(" + keys.map { "\(prefix)_\(Self.column($0)) IS NULL" }.joined(separator: " OR ") + ")"
        }
        var everyKey = PostbackKeySet()
        for key in PostbackKey.allCases { everyKey.insert(key) }
        func perVersion(_ test: (PostbackRules.SKAdNetworkVersion) -> String) -> String {
            "CASE version_known "
                + Self.versionTexts.map { "WHEN '\($0.text)' THEN \(test($0.version))" }.joined(separator: " ")
                + " ELSE FALSE END"
        }
        // A mistyped cell; `source-domain` is read only when `source-app-id` is not a number.
        let mistyped = Self.cells.map { cell -> String in
            let wrong = "(\(cell.name)_t IS NOT NULL AND NOT (\(cell.kind.matches("\(cell.name)_t"))))"
            return cell.name == "source_domain" ? "(\(wrong) AND source_app_v IS NULL)" : wrong
        }
        let fractions = Self.ranges.map { "\($0.cell)_fraction" }
        let outOfRange = Self.ranges.map {
            "(\($0.cell)_v IS NOT NULL AND NOT \($0.cell)_fraction AND NOT \(Self.known("\($0.cell)_n BETWEEN \($0.range.lowerBound) AND \($0.range.upperBound)")))"
        }
        let stanzaStrangers = everyKey.subtracting(PostbackRules.adAttributionKitStanzaAllowed)
            .subtracting(PostbackRules.adAttributionKitPayloadAllowed).keys
        let payloadStrangers = everyKey.subtracting(PostbackRules.adAttributionKitPayloadAllowed)
            .subtracting(PostbackRules.values).keys
        let fine = "fine_n BETWEEN 0 AND 63"
        let carriesValue =
            "(" + any(PostbackRules.values.keys, "lt") + " OR " + any(PostbackRules.values.keys, "pt") + ")"
        let beforeThree = Self.versionTexts.filter { $0.version < .v3 }.map { "'\($0.text)'" }.joined(separator: ", ")
        return [
            (.lineTooLong, "too_long"),
            (.notJSON, "NOT is_json"),
            (.notObject, "NOT opens_object"),
            (.jwsUnreadable, "aak AND lt_jws_string = 'string' AND NOT payload_read"),
            (
                .wrongType,
                "(aak AND lt_jws_string <> 'string') OR (country_v IS NOT NULL AND NOT country_ok) OR "
                    + (mistyped + fractions).joined(separator: " OR ")
            ),
            (.outOfRange, outOfRange.joined(separator: " OR ")),
            (.unknownVersion, "\(skan) AND version_v IS NOT NULL AND version_known IS NULL"),
            (
                .missingField,
                "(\(skan) AND \(perVersion { anyMissing(PostbackRules.required($0).keys, "lt") })) OR (aak AND \(anyMissing(PostbackRules.adAttributionKitPayloadRequired.keys, "pt")))"
            ),
            (
                .fieldNotAllowed,
                "(\(skan) AND \(perVersion { any(everyKey.subtracting(PostbackRules.allowed($0)).keys, "lt") })) OR (aak AND (\(any(stanzaStrangers, "lt")) OR \(any(payloadStrangers, "pt"))))"
            ),
            (.signedFieldOutside, "aak AND \(any(PostbackRules.adAttributionKitPayloadAllowed.keys, "lt"))"),
            (.valueInPayload, "aak AND \(any(PostbackRules.values.keys, "pt"))"),
            (.badSourceIdentifier, "source_v IS NOT NULL AND NOT source_digits_ok"),
            (.unknownCoarse, "coarse_v IS NOT NULL AND coarse_v NOT IN ('low', 'medium', 'high')"),
            (
                .unknownConversionType,
                "conversion_type_v IS NOT NULL AND conversion_type_v NOT IN (\(Self.conversionTypeTexts))"
            ),
            (.unknownInteractionType, "interaction_v IS NOT NULL AND interaction_v NOT IN ('click', 'view')"),
            (.fineAndCoarse, "fine_v IS NOT NULL AND coarse_v IS NOT NULL"),
            (.fineNotFirst, "\(fine) AND window_number <> 1"),
            (
                .nonWinnerExtra,
                "did_win_v = 'false' AND (\(carriesValue) OR window_number <> 1 OR (publisher_v IS NOT NULL AND NOT \(Self.known("version_known IN (\(beforeThree))"))))"
            ),
        ] + (catalog.routesByApp ? [(.unknownApp, "app_slot IS NULL")] : []) + [
            (.invalidFine, "\(fine) AND fine_valid = 0 AND fine_ambiguous = 0"),
            (.ambiguousVersion, "\(fine) AND fine_ambiguous = 1"),
            (.testPostback, "\(skan) AND fine_n = 0 AND source_app_n = 0"),
        ]
    }
}
