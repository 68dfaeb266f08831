/// The registrable domain of a host (its public suffix and one label more: `reports.example.co.uk` →
/// `example.co.uk`), which is the part of a report endpoint the system uses. The public suffixes known here are
/// the generic ones (any last label) and the common second-level ones of country domains; a host under a rarer
/// multi-label suffix is read as if its last label were the suffix, so at worst the check warns about a host
/// that has no subdomain. IP addresses and single labels have none.
enum RegistrableDomain {
    /// Second-level labels that are public suffixes under many country domains (`co.uk`, `com.au`, `ne.jp`).
    static let secondLevelSuffixes: Set<String> = [
        "co", "com", "net", "org", "gov", "edu", "ac", "or", "ne", "go", "gob", "gouv", "mil", "nom", "ltd", "plc",
        "sch", "nhs", "police", "biz", "info", "me",
    ]

    /// The registrable domain of `host`, lowercased; nil for an IP address or a host of one label.
    static func of(_ host: String) -> String? {
        let labels = host.lowercased().split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard labels.count >= 2, !labels.contains(where: \.isEmpty),
            !labels.allSatisfy({ $0.allSatisfy(\.isNumber) }), !host.contains(":")
        else { return nil }
        let last = labels[labels.count - 1]
        let second = labels[labels.count - 2]
        let suffixLength = last.count == 2 && secondLevelSuffixes.contains(second) ? 2 : 1
        guard labels.count > suffixLength else { return nil }
        return labels.suffix(suffixLength + 1).joined(separator: ".")
    }
}
