import Foundation
public import SkanCore

/// The attribution keys of an app's Info.plist, checked: SKAdNetwork's and AdAttributionKit's ad network
/// identifiers, the report endpoint for winning-postback copies, and the tracking usage description. Each
/// finding has a stable code, a severity and where it is: the line in an XML property list, the key path
/// in a binary one (its `subject`).
public struct InfoPlistCheck {

    /// The identifier's shape: lowercase letters and digits, then `.skadnetwork` (or, in AdAttributionKit's
    /// list, `.adattributionkit`). Apple: "Ad network IDs are case-sensitive and are in lowercase." Decided on
    /// bytes: a combining mark, a joiner or a variation selector is no letter of an ID.
    package static func identifierProblem(_ identifier: String, suffixes: [String]) -> (
        code: DiagnosticCode, hint: String
    )? {
        let trimmed = identifier.trimmingCharacters(in: .whitespacesAndNewlines)
        let lower = Array(trimmed.utf8).map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 | 0x20 : $0 }
        let shaped = suffixes.contains { suffix in
            let suffix = Array(suffix.utf8)
            return lower.count > suffix.count && lower.suffix(suffix.count).elementsEqual(suffix)
                && lower.dropLast(suffix.count).allSatisfy {
                    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0)
                        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                }
        }
        let lowered = String(decoding: lower, as: UTF8.self)
        guard shaped else {
            return (.networkIDMalformed, "an ad network ID looks like 'cstr6suwn9\(suffixes[0])'")
        }
        if trimmed != identifier { return (.networkIDMalformed, "remove the spaces around it: '\(lowered)'") }
        if lowered != identifier { return (.networkIDUppercase, "ad network IDs are lowercase: '\(lowered)'") }
        return nil
    }

    /// A value as a message quotes it: control characters escaped (`\r`, `\u{1B}`, `TerminalText`), so that a value cannot
    /// move the cursor or split the line, and at most 80 characters, so that it cannot flood the terminal.
    package static func shown(_ value: String) -> String {
        let visible = TerminalText.visible(value)
        return visible.count <= 80 ? "'\(visible)'" : "'\(visible.prefix(77))...' (\(value.count) characters)"
    }

    let root: [String: Any]
    let outline: XMLPlistOutline?
    /// What the checks found, in file order (for a binary list, which has no lines, in the order of the checks).
    public private(set) var diagnostics: [Diagnostic] = []

    /// What the check knows beyond the file.
    public struct Options: Sendable {
        /// Whether the app links tracking authorization (the SkanTracking product, or App Tracking Transparency
        /// itself): then a missing `NSUserTrackingUsageDescription` is an error, since the app crashes when it asks.
        /// The property list cannot tell; `skanc plist check --tracking` says so.
        public var linksTracking: Bool

        /// Options; by default the app is not known to link tracking authorization.
        public init(linksTracking: Bool = false) {
            self.linksTracking = linksTracking
        }
    }

    let options: Options

    /// Checks `file`: its keys, and keys written more than once; the XML outline gives lines (a binary property
    /// list has none).
    public init(_ file: InfoPlistFile, options: Options = Options()) {
        self.root = file.root
        self.outline = file.outline
        self.options = options
        for key in file.repeatedKeys {
            let lines = outline?.keyLines[key] ?? []
            add(.keyWrittenTwice(key, lines: lines), at: key)
        }
        checkSKAdNetworkItems()
        checkAdNetworkIdentifiers()
        checkReportEndpoint()
        checkTrackingDescription()
        checkAdAttributionKitConfigurations()
        checkEligibilityKeys()
        checkCopyEndpointPlacement()
        diagnostics = diagnostics.sortedByLocation()
    }

    /// Adds `diagnostic` at the line of `value` (its `occurrence`th appearance) or of the key at `path`, or, in a
    /// binary list, with `path` as its subject.
    mutating func add(_ diagnostic: Diagnostic, at path: String, value: String? = nil, occurrence: Int = 1) {
        var placed = diagnostic
        let number = value.flatMap { line(of: $0, occurrence: occurrence) } ?? key(path)
        placed.location = number.map(SourceLocation.line)
        placed.subject = number == nil ? path : nil
        diagnostics.append(placed)
    }

    /// The line of the `occurrence`th `<string>value</string>` in the XML text.
    private func line(of value: String, occurrence: Int) -> Int? {
        outline?.line(ofString: value, occurrence: occurrence)
    }

    /// The line of a top-level key in the XML text, for findings about a key rather than a value.
    private func key(_ path: String) -> Int? {
        // The top-level key is what comes before the first `[` or `.` (no top-level key has either).
        guard let name = path.split(whereSeparator: { $0 == "[" || $0 == "." }).first else { return nil }
        return outline?.line(ofKey: String(name))
    }

    private mutating func checkSKAdNetworkItems() {
        guard let value = root["SKAdNetworkItems"] else {
            add(.noNetworkItems, at: "SKAdNetworkItems")
            return
        }
        guard let items = value as? [Any] else {
            add(.networkItemsNotArray, at: "SKAdNetworkItems")
            return
        }
        var seen: [String: Int] = [:]
        for (index, item) in items.enumerated() {
            let path = "SKAdNetworkItems[\(index)].SKAdNetworkIdentifier"
            guard let identifier = (item as? [String: Any])?["SKAdNetworkIdentifier"] as? String else {
                add(.itemWithoutID, at: "SKAdNetworkItems[\(index)]")
                continue
            }
            checkIdentifier(identifier, path: path, suffixes: [".skadnetwork"], seen: &seen)
        }
    }

    private mutating func checkAdNetworkIdentifiers() {
        guard let value = root["AdNetworkIdentifiers"] else { return }
        guard let identifiers = value as? [Any] else {
            add(.identifiersNotArray, at: "AdNetworkIdentifiers")
            return
        }
        var seen: [String: Int] = [:]
        for (index, item) in identifiers.enumerated() {
            let path = "AdNetworkIdentifiers[\(index)]"
            guard let identifier = item as? String else {
                add(.identifierNotString, at: path)
                continue
            }
            checkIdentifier(identifier, path: path, suffixes: [".adattributionkit", ".skadnetwork"], seen: &seen)
        }
    }

    private mutating func checkIdentifier(
        _ identifier: String, path: String, suffixes: [String], seen: inout [String: Int]
    ) {
        seen[identifier, default: 0] += 1
        let occurrence = seen[identifier]!
        if let (code, hint) = Self.identifierProblem(identifier, suffixes: suffixes) {
            add(
                .unrecognizedID(identifier, code: code, hint: hint), at: path, value: identifier, occurrence: occurrence
            )
        } else if occurrence > 1 {
            add(.repeatedID(identifier), at: path, value: identifier, occurrence: occurrence)
        }
    }

    /// `NSAdvertisingAttributionReportEndpoint` (SKAdNetwork's winning-postback copies and Private Click
    /// Measurement) and AdAttributionKit's `AttributionCopyEndpoint` (iOS 17.4): each an https URL of a domain,
    /// to which the system adds its own well-known path.
    private mutating func checkReportEndpoint() {
        let report = "NSAdvertisingAttributionReportEndpoint"
        let copy = "AttributionCopyEndpoint"
        if root[report] == nil {
            add(.noReportEndpoint(report), at: report)
        } else {
            checkEndpoint(report)
            if root[copy] == nil {
                add(.noCopyEndpoint(report, copy), at: report)
            }
        }
        if root[copy] != nil { checkEndpoint(copy) }
    }

    private mutating func checkEndpoint(_ key: String) {
        guard let endpoint = root[key] as? String else {
            add(.endpointNotString(key), at: key)
            return
        }
        guard let url = URL(string: endpoint), let scheme = url.scheme, url.host?.isEmpty == false else {
            add(.endpointNotURL(endpoint), at: key, value: endpoint)
            return
        }
        if scheme.lowercased() != "https" {
            add(.endpointNotHTTPS(endpoint), at: key, value: endpoint)
        } else if !(url.path.isEmpty || url.path == "/") || url.query != nil {
            add(.endpointWithPath(endpoint), at: key, value: endpoint)
        } else if let host = url.host, let registrable = RegistrableDomain.of(host), registrable != host.lowercased() {
            add(.endpointWithSubdomain(endpoint, registrable: registrable), at: key, value: endpoint)
        }
    }
}

extension Diagnostic {
    fileprivate static func keyWrittenTwice(_ key: String, lines: [Int]) -> Diagnostic {
        let place = lines.count > 1 ? " (lines \(lines.map(String.init).joined(separator: ", ")))" : ""
        return .error(
            .plistKeyRepeated,
            "\(key) is written \(max(lines.count, 2)) times\(place); the system reads only one of them: merge them into one",
            at: nil)
    }

    fileprivate static let noNetworkItems = Diagnostic.warning(
        .skadnetworkItemsMissing,
        "no SKAdNetworkItems: ads shown in this app are attributed by no ad network; add the IDs of the networks you show ads from ('skanc plist add-networks')",
        at: nil)

    fileprivate static let networkItemsNotArray = Diagnostic.error(
        .skadnetworkItemsNotArray, "SKAdNetworkItems must be an array of dictionaries; write one per ad network",
        at: nil)

    fileprivate static let itemWithoutID = Diagnostic.error(
        .networkIDMissing, "each item needs a string SKAdNetworkIdentifier", at: nil)

    fileprivate static let identifiersNotArray = Diagnostic.error(
        .adNetworkIdentifiersNotArray, "AdNetworkIdentifiers must be an array of strings", at: nil)

    fileprivate static let identifierNotString = Diagnostic.error(
        .networkIDMissing, "each AdNetworkIdentifiers item must be a string", at: nil)

    fileprivate static func unrecognizedID(_ identifier: String, code: DiagnosticCode, hint: String) -> Diagnostic {
        .error(
            code,
            "\(InfoPlistCheck.shown(identifier)) is not an ad network ID the system recognizes: \(hint); that network's installs are lost",
            at: nil)
    }

    fileprivate static func repeatedID(_ identifier: String) -> Diagnostic {
        .warning(.networkIDDuplicate, "\(InfoPlistCheck.shown(identifier)) is listed again; remove the repeat", at: nil)
    }

    fileprivate static func noReportEndpoint(_ key: String) -> Diagnostic {
        .warning(
            .reportEndpointMissing, "no \(key): the app receives no copies of winning postbacks; add your https domain",
            at: nil)
    }

    fileprivate static func noCopyEndpoint(_ report: String, _ copy: String) -> Diagnostic {
        .warning(
            .copyEndpointMissing,
            "\(report) is set but \(copy) is not: AdAttributionKit sends its postback copies only to \(copy)", at: nil)
    }

    fileprivate static func endpointNotString(_ key: String) -> Diagnostic {
        .error(.reportEndpointNotString, "\(key) must be a string such as 'https://example.com'", at: nil)
    }

    fileprivate static func endpointNotURL(_ endpoint: String) -> Diagnostic {
        .error(
            .reportEndpointMalformed, "\(InfoPlistCheck.shown(endpoint)) is not a URL; use 'https://example.com'",
            at: nil)
    }

    fileprivate static func endpointNotHTTPS(_ endpoint: String) -> Diagnostic {
        .error(
            .reportEndpointNotHTTPS,
            "\(InfoPlistCheck.shown(endpoint)) must use https; the system sends postback copies only over https",
            at: nil)
    }

    fileprivate static func endpointWithPath(_ endpoint: String) -> Diagnostic {
        .warning(
            .reportEndpointHasPath,
            "\(InfoPlistCheck.shown(endpoint)) has a path; give the domain only: the system adds its own well-known path",
            at: nil)
    }

    fileprivate static func endpointWithSubdomain(_ endpoint: String, registrable: String) -> Diagnostic {
        .warning(
            .reportEndpointHasSubdomain,
            "\(InfoPlistCheck.shown(endpoint)) has a subdomain; the system uses the registrable domain only and sends copies to 'https://\(registrable)': serve them there, or give that domain",
            at: nil)
    }
}
