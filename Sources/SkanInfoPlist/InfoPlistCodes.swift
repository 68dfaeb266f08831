public import SkanCore

/// The Info.plist checker's codes (`skanc plist check`, `skanc plist add-networks`), listed in
/// `skanc plist --help` and the README.
extension DiagnosticCode {
    /// The file cannot be opened or read.
    public static let plistUnreadable = DiagnosticCode("plist-unreadable")
    /// The file is larger than any Info.plist.
    public static let plistTooLarge = DiagnosticCode("plist-too-large")
    /// The top level is not a dictionary.
    public static let plistNotDictionary = DiagnosticCode("plist-not-dictionary")
    /// A top-level key written more than once.
    public static let plistKeyRepeated = DiagnosticCode("plist-key-repeated")
    /// A property list cannot be encoded back.
    public static let plistUnwritable = DiagnosticCode("plist-unwritable")
    /// An ad network ID in uppercase.
    public static let networkIDUppercase = DiagnosticCode("network-id-uppercase")
    /// Not an ad network ID's shape.
    public static let networkIDMalformed = DiagnosticCode("network-id-malformed")
    /// An item without an ID.
    public static let networkIDMissing = DiagnosticCode("network-id-missing")
    /// An ID listed twice.
    public static let networkIDDuplicate = DiagnosticCode("network-id-duplicate")
    /// A file of IDs that is neither a list of lines nor a property list of IDs.
    public static let networkIDsUnreadable = DiagnosticCode("network-ids-unreadable")
    /// No SKAdNetworkItems.
    public static let skadnetworkItemsMissing = DiagnosticCode("skadnetwork-items-missing")
    /// SKAdNetworkItems is not an array.
    public static let skadnetworkItemsNotArray = DiagnosticCode("skadnetwork-items-not-array")
    /// AdNetworkIdentifiers is not an array.
    public static let adNetworkIdentifiersNotArray = DiagnosticCode("ad-network-identifiers-not-array")
    /// No report endpoint.
    public static let reportEndpointMissing = DiagnosticCode("report-endpoint-missing")
    /// A report endpoint that is not a string.
    public static let reportEndpointNotString = DiagnosticCode("report-endpoint-not-string")
    /// A report endpoint that is not a URL.
    public static let reportEndpointMalformed = DiagnosticCode("report-endpoint-malformed")
    /// A report endpoint that is not https.
    public static let reportEndpointNotHTTPS = DiagnosticCode("report-endpoint-not-https")
    /// A report endpoint with a path.
    public static let reportEndpointHasPath = DiagnosticCode("report-endpoint-has-path")
    /// A report endpoint without AdAttributionKit's copy endpoint.
    public static let copyEndpointMissing = DiagnosticCode("copy-endpoint-missing")
    /// No tracking usage description.
    public static let trackingDescriptionMissing = DiagnosticCode("tracking-description-missing")
    /// A tracking usage description that is not a string.
    public static let trackingDescriptionNotString = DiagnosticCode("tracking-description-not-string")
    /// A vague or placeholder tracking usage description.
    public static let trackingDescriptionPlaceholder = DiagnosticCode("tracking-description-placeholder")
    /// A tracking usage description that states no purpose (vague, or too short to state one).
    public static let trackingDescriptionVague = DiagnosticCode("tracking-description-vague")
    /// A tracking usage description that pressures the user (the app will not work otherwise, a reward).
    public static let trackingDescriptionCoercive = DiagnosticCode("tracking-description-coercive")
    /// A localized strings file (`InfoPlist.strings`, `.xcstrings`) that cannot be read.
    public static let stringsUnreadable = DiagnosticCode("strings-unreadable")
    /// A report endpoint with a subdomain: Apple uses the registrable domain only.
    public static let reportEndpointHasSubdomain = DiagnosticCode("report-endpoint-has-subdomain")
    /// An AdAttributionKit configuration that is not a dictionary where one is needed.
    public static let adAttributionKitConfigurationMalformed = DiagnosticCode(
        "adattributionkit-configuration-malformed")
    /// An attribution window outside Apple's days (click 1-30, view 1-7) or not a whole number.
    public static let attributionWindowOutOfRange = DiagnosticCode("attribution-window-out-of-range")
    /// `ignoreInteractionType` in the global section, or with a value other than `click` or `view`.
    public static let ignoreInteractionTypeInvalid = DiagnosticCode("ignore-interaction-type-invalid")
    /// An attribution cooldown outside 0-720 hours or not a whole number.
    public static let attributionCooldownOutOfRange = DiagnosticCode("attribution-cooldown-out-of-range")
    /// Both spellings of the re-engagement cooldown (Apple's page and the WWDC25 sample): which one iOS reads is
    /// not documented.
    public static let attributionCooldownSpelledTwice = DiagnosticCode("attribution-cooldown-spelled-twice")
    /// A key AdAttributionKit's configuration does not have.
    public static let adAttributionKitKeyUnknown = DiagnosticCode("adattributionkit-key-unknown")
    /// An `EligibleForAdAttributionKit…` key that is not a Boolean.
    public static let eligibilityNotBoolean = DiagnosticCode("eligibility-not-boolean")
    /// `AttributionCopyEndpoint` inside a dictionary: the system reads it at the top level only.
    public static let copyEndpointMisplaced = DiagnosticCode("copy-endpoint-misplaced")
    /// Re-engagement postback copies asked for without a top-level `AttributionCopyEndpoint` to receive them.
    public static let reengagementCopiesWithoutEndpoint = DiagnosticCode("reengagement-copies-without-endpoint")
}
