import Foundation
import SkanCore
import Testing

@testable import SkanInfoPlist

/// AdAttributionKit's Info.plist keys ("Configuring attribution rules for your app"): attribution windows global
/// or per network, the cooldowns, the two eligibility Booleans, and endpoints with a subdomain; XML with lines and
/// binary with key paths.
@Suite struct AdAttributionKitKeysTests {
    static var valid: [String: Any] {
        [
            "AdAttributionKitConfigurations": [
                "AttributionWindows": [
                    "global": ["install": ["click": 14, "view": 3]],
                    "example123.adattributionkit": ["install": ["click": 7, "ignoreInteractionType": "view"]],
                ],
                "AttributionCooldown": ["install-cooldown-hours": 24, "re-engagement-cooldown-hours": 0],
            ],
            "EligibleForAdAttributionKitOverlappingConversions": true,
            "EligibleForAdAttributionKitReengagementPostbackCopies": false,
        ]
    }

    static var flawed: [String: Any] {
        [
            "AdAttributionKitConfigurations": [
                "AttributionWindows": [
                    "global": ["install": ["click": 45, "view": 3, "ignoreInteractionType": "view"]],
                    "example123.adattributionkit": ["install": ["view": 0, "ignoreInteractionType": "both"]],
                    "Some Network": ["install": ["click": 2.5]],
                ],
                "AttributionCooldown": ["install-cooldown-hours": 721, "reinstall-cooldown-hours": 1],
            ],
            "EligibleForAdAttributionKitOverlappingConversions": "YES",
            "EligibleForAdAttributionKitReengagementPostbackCopies": 1,
        ]
    }

    static func findings(_ root: [String: Any], format: PropertyListSerialization.PropertyListFormat) throws
        -> [Diagnostic]
    {
        let data = try PropertyListSerialization.data(fromPropertyList: root, format: format, options: 0)
        let codes: Set<DiagnosticCode> = [
            .adAttributionKitConfigurationMalformed, .attributionWindowOutOfRange, .ignoreInteractionTypeInvalid,
            .attributionCooldownOutOfRange, .adAttributionKitKeyUnknown, .eligibilityNotBoolean,
            .reportEndpointHasSubdomain,
        ]
        return InfoPlistCheck(try InfoPlistFile.parse([UInt8](data))).diagnostics.filter { codes.contains($0.code) }
    }

    @Test(arguments: [PropertyListSerialization.PropertyListFormat.xml, .binary])
    func aValidConfigurationHasNoFindings(_ format: PropertyListSerialization.PropertyListFormat) throws {
        #expect(try Self.findings(Self.valid, format: format).isEmpty)
        // WWDC25's spelling of the re-engagement cooldown is read too.
        let spelled: [String: Any] = [
            "AdAttributionKitConfigurations": ["AttributionCooldown": ["reengagement-cooldown-hours": 12]]
        ]
        #expect(try Self.findings(spelled, format: format).isEmpty)
    }

    /// Both cooldown spellings at once: a warning, which says when their hours differ; WWDC25's network key with
    /// capitals (`com.example.adNetwork`) is a network key.
    @Test(arguments: [PropertyListSerialization.PropertyListFormat.xml, .binary])
    func bothCooldownSpellingsAreAWarningAndCapitalsNameANetwork(
        _ format: PropertyListSerialization.PropertyListFormat
    ) throws {
        func configuration(_ apple: Int, _ session: Int) -> [String: Any] {
            [
                "AdAttributionKitConfigurations": [
                    "AttributionWindows": ["com.example.adNetwork": ["install": ["click": 7]]],
                    "AttributionCooldown": [
                        "re-engagement-cooldown-hours": apple, "reengagement-cooldown-hours": session,
                    ],
                ]
            ]
        }
        func spelledTwice(_ root: [String: Any]) throws -> [Diagnostic] {
            let data = try PropertyListSerialization.data(fromPropertyList: root, format: format, options: 0)
            return InfoPlistCheck(try InfoPlistFile.parse([UInt8](data))).diagnostics.filter {
                $0.code == .attributionCooldownSpelledTwice || $0.code == .adAttributionKitKeyUnknown
            }
        }
        let agreeing = try spelledTwice(configuration(12, 12))
        #expect(agreeing.map(\.code) == [.attributionCooldownSpelledTwice] && agreeing[0].severity == .warning)
        #expect(!agreeing[0].message.contains("different"))
        let conflicting = try spelledTwice(configuration(12, 48))
        #expect(conflicting.count == 1 && conflicting[0].message.contains("with different hours"), "\(conflicting)")
    }

    static let expectedMessages = [
        "AdAttributionKitConfigurations.AttributionCooldown.install-cooldown-hours is '721'; give a whole number of hours from 0 to 720",
        "AdAttributionKitConfigurations.AttributionCooldown.reinstall-cooldown-hours is no key AdAttributionKit reads; use install-cooldown-hours, re-engagement-cooldown-hours, or remove it",
        "AdAttributionKitConfigurations.AttributionWindows.Some Network is no key AdAttributionKit reads; use global, or an ad network ID such as 'example123.adattributionkit', or remove it",
        "AdAttributionKitConfigurations.AttributionWindows.Some Network.install.click is '2.5'; give a whole number of days from 1 to 30",
        "AdAttributionKitConfigurations.AttributionWindows.example123.adattributionkit.install.view is '0'; give a whole number of days from 1 to 7",
        "AdAttributionKitConfigurations.AttributionWindows.example123.adattributionkit.install.ignoreInteractionType is 'both'; give 'click' or 'view' (one of them: ignoring both leaves the network nothing)",
        "AdAttributionKitConfigurations.AttributionWindows.global.install.click is '45'; give a whole number of days from 1 to 30",
        "AdAttributionKitConfigurations.AttributionWindows.global.install.ignoreInteractionType: ignoreInteractionType is read only per ad network, not in the global section; move it under the network's ID",
        "EligibleForAdAttributionKitOverlappingConversions must be a Boolean (<true/> or <false/>); the system ignores it otherwise",
        "EligibleForAdAttributionKitReengagementPostbackCopies must be a Boolean (<true/> or <false/>); the system ignores it otherwise",
    ]

    @Test(arguments: [PropertyListSerialization.PropertyListFormat.xml, .binary])
    func eachRuleHasItsMessage(_ format: PropertyListSerialization.PropertyListFormat) throws {
        let found = try Self.findings(Self.flawed, format: format)
        #expect(found.map(\.message).sorted() == Self.expectedMessages.sorted())
        let warnings = found.filter { $0.severity == .warning }.map(\.code)
        #expect(warnings == [.adAttributionKitKeyUnknown, .adAttributionKitKeyUnknown])
        if format == .xml {
            // Findings inside the configuration are placed at its key; the Booleans at theirs.
            #expect(found.allSatisfy { $0.location != nil && $0.subject == nil })
        } else {
            #expect(found.allSatisfy { $0.location == nil && $0.subject != nil })
        }
    }

    @Test(arguments: [PropertyListSerialization.PropertyListFormat.xml, .binary])
    func copiesNeedATopLevelEndpoint(_ format: PropertyListSerialization.PropertyListFormat) throws {
        let codes: Set<DiagnosticCode> = [.copyEndpointMisplaced, .reengagementCopiesWithoutEndpoint]
        func found(_ root: [String: Any]) throws -> [Diagnostic] {
            let data = try PropertyListSerialization.data(fromPropertyList: root, format: format, options: 0)
            return InfoPlistCheck(try InfoPlistFile.parse([UInt8](data))).diagnostics.filter { codes.contains($0.code) }
        }
        // As several guides write it: nested, so the system never sees it, and the copies it asks for never come.
        let nested = try found([
            "AdAttributionKit": ["AttributionCopyEndpoint": "https://example.com"],
            "EligibleForAdAttributionKitReengagementPostbackCopies": true,
        ])
        #expect(
            nested.map(\.message) == [
                "AdAttributionKit.AttributionCopyEndpoint: the system reads AttributionCopyEndpoint at the top level of the Info.plist only, so no copy would arrive; move it there",
                "EligibleForAdAttributionKitReengagementPostbackCopies asks for copies of re-engagement postbacks, but there is no top-level AttributionCopyEndpoint to send them to; add it (an https URL of your domain)",
            ])
        #expect(nested.allSatisfy { $0.severity == .error })
        // At the top level, or with the copies not asked for, nothing.
        #expect(
            try found([
                "AttributionCopyEndpoint": "https://example.com",
                "EligibleForAdAttributionKitReengagementPostbackCopies": true,
            ]).isEmpty)
        #expect(try found(["EligibleForAdAttributionKitReengagementPostbackCopies": false]).isEmpty)
    }

    @Test func applesOwnExampleNetworkIDIsANetwork() throws {
        // "Configuring attribution rules for your app" keys its per-network windows by `com.apple.test.itms11.2`.
        let root: [String: Any] = [
            "AdAttributionKitConfigurations": [
                "AttributionWindows": ["com.apple.test.itms11.2": ["install": ["click": 7, "view": 1]]]
            ]
        ]
        #expect(try Self.findings(root, format: .xml).isEmpty)
        #expect(InfoPlistCheck.isNetworkScope("example123.adattributionkit"))
        #expect(!InfoPlistCheck.isNetworkScope("Some Network") && !InfoPlistCheck.isNetworkScope("global."))
    }

    @Test func notADictionaryIsSaid() throws {
        let found = try Self.findings(["AdAttributionKitConfigurations": ["AttributionWindows": [1]]], format: .xml)
        #expect(
            found.map(\.message) == [
                "AdAttributionKitConfigurations.AttributionWindows must be a dictionary; the system ignores it otherwise"
            ])
    }

    @Test func anEndpointWithASubdomainIsWarnedAbout() throws {
        let root: [String: Any] = [
            "NSAdvertisingAttributionReportEndpoint": "https://postbacks.example.co.uk",
            "AttributionCopyEndpoint": "https://example.com",
        ]
        let found = try Self.findings(root, format: .xml)
        #expect(
            found.map(\.message) == [
                "'https://postbacks.example.co.uk' has a subdomain; the system uses the registrable domain only and sends copies to 'https://example.co.uk': serve them there, or give that domain"
            ])
        #expect(found.first?.severity == .warning)
        #expect(RegistrableDomain.of("a.b.example.com") == "example.com")
        #expect(RegistrableDomain.of("example.com.au") == "example.com.au")
        #expect(RegistrableDomain.of("127.0.0.1") == nil)
        #expect(RegistrableDomain.of("localhost") == nil)
    }
}
