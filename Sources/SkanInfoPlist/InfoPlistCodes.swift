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
}
