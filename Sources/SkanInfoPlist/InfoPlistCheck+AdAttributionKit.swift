import Foundation
import SkanCore

/// AdAttributionKit's keys (AdAttributionKit, "Configuring attribution rules for your app"; Information Property
/// List, `EligibleForAdAttributionKitOverlappingConversions` and `EligibleForAdAttributionKitReengagementPostbackCopies`):
///
/// ```
/// AdAttributionKitConfigurations
///   AttributionWindows
///     global                      install: click 1-30 days, view 1-7 days
///     <ad network ID>             install: click, view, ignoreInteractionType (click or view)
///   AttributionCooldown           install-cooldown-hours, re-engagement-cooldown-hours: 0-720
/// ```
extension InfoPlistCheck {
    static let configurationsKey = "AdAttributionKitConfigurations"
    /// The days each interaction's window may take.
    static let windowDays: [(interaction: String, days: ClosedRange<Int>)] = [("click", 1...30), ("view", 1...7)]
    /// The cooldown keys: Apple's page writes `re-engagement-cooldown-hours`, WWDC25 session 221
    /// `reengagement-cooldown-hours`; both are read.
    static let cooldownKeys = ["install-cooldown-hours", "re-engagement-cooldown-hours", "reengagement-cooldown-hours"]
    static let cooldownHours = 0...720
    static let eligibilityKeys = [
        "EligibleForAdAttributionKitOverlappingConversions", "EligibleForAdAttributionKitReengagementPostbackCopies",
    ]

    mutating func checkAdAttributionKitConfigurations() {
        let key = Self.configurationsKey
        guard let value = root[key] else { return }
        guard let configurations = value as? [String: Any] else {
            add(.notADictionary(key), at: key)
            return
        }
        for name in configurations.keys.sorted() where !["AttributionWindows", "AttributionCooldown"].contains(name) {
            add(.unknownKey("\(key).\(name)", known: "AttributionWindows, AttributionCooldown"), at: key)
        }
        if let windows = configurations["AttributionWindows"] {
            checkAttributionWindows(windows, path: "\(key).AttributionWindows")
        }
        if let cooldown = configurations["AttributionCooldown"] {
            checkCooldown(cooldown, path: "\(key).AttributionCooldown")
        }
    }

    private mutating func checkAttributionWindows(_ value: Any, path: String) {
        guard let windows = value as? [String: Any] else {
            add(.notADictionary(path), at: path)
            return
        }
        for scope in windows.keys.sorted() {
            let scopePath = "\(path).\(scope)"
            if scope != "global", !Self.isNetworkScope(scope) {
                add(
                    .unknownKey(scopePath, known: "global, or an ad network ID such as 'example123.adattributionkit'"),
                    at: path)
            }
            guard let conversions = windows[scope] as? [String: Any] else {
                add(.notADictionary(scopePath), at: path)
                continue
            }
            for conversion in conversions.keys.sorted() where conversion != "install" {
                add(
                    .unknownKey("\(scopePath).\(conversion)", known: "install (windows apply to installs only)"),
                    at: path)
            }
            guard let install = conversions["install"] else { continue }
            guard let rules = install as? [String: Any] else {
                add(.notADictionary("\(scopePath).install"), at: path)
                continue
            }
            checkWindowRules(rules, path: "\(scopePath).install", global: scope == "global")
        }
    }

    private mutating func checkWindowRules(_ rules: [String: Any], path: String, global: Bool) {
        for (interaction, days) in Self.windowDays {
            guard let value = rules[interaction] else { continue }
            if let number = Self.wholeNumber(value), days.contains(number) { continue }
            add(.windowOutOfRange("\(path).\(interaction)", value: value, days: days), at: path)
        }
        if let ignored = rules["ignoreInteractionType"] {
            if global {
                add(.ignoreInGlobal("\(path).ignoreInteractionType"), at: path)
            } else if !(ignored is String && ["click", "view"].contains(ignored as? String)) {
                add(.ignoreValue("\(path).ignoreInteractionType", value: ignored), at: path)
            }
        }
        let known = Self.windowDays.map(\.interaction) + ["ignoreInteractionType"]
        for name in rules.keys.sorted() where !known.contains(name) {
            add(.unknownKey("\(path).\(name)", known: known.joined(separator: ", ")), at: path)
        }
    }

    private mutating func checkCooldown(_ value: Any, path: String) {
        guard let cooldown = value as? [String: Any] else {
            add(.notADictionary(path), at: path)
            return
        }
        for name in cooldown.keys.sorted() {
            guard Self.cooldownKeys.contains(name) else {
                add(
                    .unknownKey("\(path).\(name)", known: Self.cooldownKeys.prefix(2).joined(separator: ", ")), at: path
                )
                continue
            }
            if let hours = Self.wholeNumber(cooldown[name]!), Self.cooldownHours.contains(hours) { continue }
            add(.cooldownOutOfRange("\(path).\(name)", value: cooldown[name]!), at: path)
        }
        let (apple, session) = (Self.cooldownKeys[1], Self.cooldownKeys[2])
        if let first = cooldown[apple], let second = cooldown[session] {
            let agree = Self.wholeNumber(first) != nil && Self.wholeNumber(first) == Self.wholeNumber(second)
            add(.cooldownSpelledTwice(path, apple, session, agree: agree), at: path)
        }
    }

    mutating func checkEligibilityKeys() {
        for key in Self.eligibilityKeys {
            guard let value = root[key] else { continue }
            if !Self.isBoolean(value) { add(.notABoolean(key), at: key) }
        }
    }

    /// Where copies go: `AttributionCopyEndpoint` is read at the top level only (several guides nest it in an
    /// `AdAttributionKit` dictionary, and no copy arrives), and asking for re-engagement copies needs it.
    mutating func checkCopyEndpointPlacement() {
        let endpoint = "AttributionCopyEndpoint"
        for key in root.keys.sorted() {
            guard let nested = root[key] as? [String: Any], nested[endpoint] != nil else { continue }
            add(.copyEndpointMisplaced("\(key).\(endpoint)", endpoint: endpoint), at: key)
        }
        let copies = "EligibleForAdAttributionKitReengagementPostbackCopies"
        if let value = root[copies], Self.isBoolean(value), (value as? NSNumber)?.boolValue == true,
            root[endpoint] == nil
        {
            add(.copiesWithoutEndpoint(copies, endpoint: endpoint), at: copies)
        }
    }

    /// Whether `scope` names an ad network in `AttributionWindows`: an ID shaped like `example123.adattributionkit`
    /// or `.skadnetwork`, or a reverse-DNS identifier such as the `com.apple.test.itms11.2` of Apple's own example.
    static func isNetworkScope(_ scope: String) -> Bool {
        if identifierProblem(scope, suffixes: [".adattributionkit", ".skadnetwork"]) == nil { return true }
        let labels = scope.split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2
            && labels.allSatisfy { label in
                !label.isEmpty
                    && label.utf8.allSatisfy { byte in
                        // Reverse-DNS labels may have capitals: Apple's WWDC25 example names `com.example.adNetwork`.
                        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
                    }
            }
    }

    /// A property list number with a whole value (`<integer>` or a `<real>` such as 24.0), not a Boolean.
    static func wholeNumber(_ value: Any) -> Int? {
        guard !isBoolean(value), let number = value as? NSNumber else { return nil }
        let double = number.doubleValue
        guard double.rounded() == double, abs(double) < 1e15 else { return nil }
        return Int(double)
    }

    /// A property list Boolean (`<true/>`, `<false/>`), not the numbers 0 and 1: Foundation reads it as an
    /// `NSNumber` of C type `char` on Apple platforms and as a `Bool` of the same C type on Linux, while integers
    /// are `int` or `long long`.
    static func isBoolean(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return false }
        return String(cString: number.objCType) == "c"
    }
}

extension Diagnostic {
    fileprivate static func notADictionary(_ path: String) -> Diagnostic {
        .error(
            .adAttributionKitConfigurationMalformed, "\(path) must be a dictionary; the system ignores it otherwise",
            at: nil)
    }

    fileprivate static func unknownKey(_ path: String, known: String) -> Diagnostic {
        .warning(
            .adAttributionKitKeyUnknown, "\(path) is no key AdAttributionKit reads; use \(known), or remove it",
            at: nil)
    }

    fileprivate static func windowOutOfRange(_ path: String, value: Any, days: ClosedRange<Int>) -> Diagnostic {
        .error(
            .attributionWindowOutOfRange,
            "\(path) is \(InfoPlistCheck.shown("\(value)")); give a whole number of days from \(days.lowerBound) to \(days.upperBound)",
            at: nil)
    }

    fileprivate static func ignoreInGlobal(_ path: String) -> Diagnostic {
        .error(
            .ignoreInteractionTypeInvalid,
            "\(path): ignoreInteractionType is read only per ad network, not in the global section; move it under the network's ID",
            at: nil)
    }

    fileprivate static func ignoreValue(_ path: String, value: Any) -> Diagnostic {
        .error(
            .ignoreInteractionTypeInvalid,
            "\(path) is \(InfoPlistCheck.shown("\(value)")); give 'click' or 'view' (one of them: ignoring both leaves the network nothing)",
            at: nil)
    }

    fileprivate static func cooldownOutOfRange(_ path: String, value: Any) -> Diagnostic {
        .error(
            .attributionCooldownOutOfRange,
            "\(path) is \(InfoPlistCheck.shown("\(value)")); give a whole number of hours from 0 to 720", at: nil)
    }

    fileprivate static func cooldownSpelledTwice(_ path: String, _ apple: String, _ session: String, agree: Bool)
        -> Diagnostic
    {
        .warning(
            .attributionCooldownSpelledTwice,
            "\(path) has both \(apple) (Apple's page) and \(session) (the WWDC25 sample)"
                + (agree ? "" : " with different hours") + "; which one iOS reads is not documented: keep one, "
                + "\(apple) as Apple's page spells it", at: nil)
    }

    fileprivate static func copyEndpointMisplaced(_ path: String, endpoint: String) -> Diagnostic {
        .error(
            .copyEndpointMisplaced,
            "\(path): the system reads \(endpoint) at the top level of the Info.plist only, so no copy would arrive; move it there",
            at: nil)
    }

    fileprivate static func copiesWithoutEndpoint(_ key: String, endpoint: String) -> Diagnostic {
        .error(
            .reengagementCopiesWithoutEndpoint,
            "\(key) asks for copies of re-engagement postbacks, but there is no top-level \(endpoint) to send them to; add it (an https URL of your domain)",
            at: nil)
    }

    fileprivate static func notABoolean(_ key: String) -> Diagnostic {
        .error(
            .eligibilityNotBoolean, "\(key) must be a Boolean (<true/> or <false/>); the system ignores it otherwise",
            at: nil)
    }
}
