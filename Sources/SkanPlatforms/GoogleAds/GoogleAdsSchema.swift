public import SkanCore
import SkanSchema

/// A Google Ads API `CustomerSkAdNetworkConversionValueSchema` as read from its JSON (as `skanc export --format
/// google-ads` writes it, or as the API returns it), strictly, as Google's client library reads it with
/// `ignore_unknown_fields=False`. Bounds of 0 are proto3's unset values, as the API reads them.
public struct GoogleAdsSchema: Sendable {
    /// One `MappedEvent`: an event with its revenue and count bounds.
    public struct MappedEvent: Sendable, Equatable {
        /// `mappedEventName`.
        public var name: String
        /// `currencyCode`, where a revenue bound is given.
        public var currency: String?
        /// `eventRevenueRange`: inclusive; nil where unset (0).
        public var minRevenue: Double?, maxRevenue: Double?
        /// `eventRevenueValue`: the sum equals it.
        public var revenueValue: Double?
        /// `eventOccurrenceRange`: inclusive; nil where unset (0).
        public var minCount: Int?, maxCount: Int?
        /// `eventCounter`: the count equals it.
        public var counter: Int?
    }

    /// One `ConversionValueMapping`: the hours since install of the last activity (whole hours, inclusive) and
    /// the events, all of which hold.
    public struct Mapping: Sendable, Equatable {
        /// `minTimePostInstallHours`.
        public var minHours: Int
        /// `maxTimePostInstallHours`.
        public var maxHours: Int
        /// `mappedEvents`.
        public var events: [MappedEvent]
        /// Its key path, where errors and warnings about it point.
        public var path: String
    }

    /// What locks a postback.
    public enum LockTrigger: Sendable, Equatable {
        /// `lockWindowEvent`.
        case event(String)
        /// `lockWindowFineConversionValue`.
        case fineValue(Int)
        /// `lockWindowCoarseConversionValue`.
        case coarseValue(CoarseValue)
    }

    /// One `PostbackMapping`.
    public struct PostbackMapping: Sendable {
        /// The coarse values' mappings, where given.
        public var coarse: [CoarseValue: Mapping]
        /// The one lock trigger, if any.
        public var lock: LockTrigger?
        /// Its key path.
        public var path: String
    }

    /// `schema.appId`.
    public var appID: String?
    /// `fineGrainedConversionValueMappings`, by fine value, in the order written.
    public var fineMappings: [(fineValue: Int, mapping: Mapping)]
    /// `postbackMappings`, by window.
    public var postbacks: PerWindow<PostbackMapping?>
}

extension GoogleAdsSchema {
    /// Reads the resource's JSON; every problem is reported with its key path, as many as found.
    public static func read(_ bytes: [UInt8]) throws(ConfigurationReadError) -> GoogleAdsSchema {
        var problems = GoogleAdsProblems()
        return try problems.resource(bytes) { $0.customerSchema($1) }
    }
}

/// The reading of each message of the resource, collecting problems.
private struct GoogleAdsProblems: StrictJSONReading {
    var diagnostics: [Diagnostic] = []

    mutating func customerSchema(_ value: JSONDocument) -> GoogleAdsSchema? {
        guard let members = members(value, at: "", allowed: ["resourceName", "schema"]) else { return nil }
        var result: GoogleAdsSchema?
        for (key, member) in members {
            if key == "resourceName" { _ = string(member, at: key) }
            if key == "schema" { result = schema(member, at: key) }
        }
        if !members.contains(where: { $0.0 == "schema" }) { diagnostics.append(.missing("schema", at: "")) }
        return result
    }

    /// The hours `measurementWindowHours` may give: after the install, and within Apple's last conversion window.
    static let measurementWindowHours = 1...840

    mutating func schema(_ value: JSONDocument, at path: String) -> GoogleAdsSchema? {
        let keys = ["appId", "measurementWindowHours", "fineGrainedConversionValueMappings", "postbackMappings"]
        guard let members = members(value, at: path, allowed: keys) else { return nil }
        var result = GoogleAdsSchema(
            appID: nil, fineMappings: [], postbacks: PerWindow<GoogleAdsSchema.PostbackMapping?>(repeating: nil))
        for (key, member) in members {
            let at = "\(path).\(key)"
            switch key {
            case "appId": result.appID = string(member, at: at)
            case "measurementWindowHours":
                // Hours after the install; Google gives no range, Apple's last conversion window ends at 35 days.
                if let hours = integer(member, at: at), !Self.measurementWindowHours.contains(hours) {
                    diagnostics.append(
                        .outOfRange(at, "\(hours)", "1...840 (hours after the install, at most 35 days)"))
                }
            case "fineGrainedConversionValueMappings":
                for (index, item) in array(member, at: at).enumerated() {
                    let itemPath = "\(at)[\(index)]"
                    guard
                        let fields = self.members(
                            item, at: itemPath, allowed: ["fineGrainedConversionValue", "conversionValueMapping"])
                    else { continue }
                    var fine: Int?
                    var mapping: GoogleAdsSchema.Mapping?
                    for (field, inner) in fields {
                        if field == "fineGrainedConversionValue" {
                            fine = integer(inner, at: "\(itemPath).\(field)")
                            if let value = fine, !(0...63).contains(value) {
                                diagnostics.append(.outOfRange("\(itemPath).\(field)", "\(value)", "0...63"))
                            }
                        } else {
                            mapping = self.mapping(inner, at: "\(itemPath).\(field)")
                        }
                    }
                    if let fine, let mapping {
                        if result.fineMappings.contains(where: { $0.fineValue == fine }) {
                            diagnostics.append(.repeatedFineValue(fine, at: "\(itemPath).fineGrainedConversionValue"))
                        }
                        result.fineMappings.append((fine, mapping))
                    } else {
                        // A key that is there but unreadable has its own error already; only an absent one is missing.
                        for key in ["fineGrainedConversionValue", "conversionValueMapping"]
                        where !fields.contains(where: { $0.0 == key }) {
                            diagnostics.append(.missing(key, at: itemPath))
                        }
                    }
                }
            case "postbackMappings":
                for (index, item) in array(member, at: at).enumerated() {
                    guard let (window, postback) = postbackMapping(item, at: "\(at)[\(index)]") else { continue }
                    if result.postbacks[window] != nil {
                        diagnostics.append(.repeatedPostback(window, at: "\(at)[\(index)].postbackSequenceIndex"))
                    }
                    result.postbacks[window] = postback
                }
            default: break
            }
        }
        return result
    }

    mutating func array(_ value: JSONDocument, at path: String) -> [JSONDocument] {
        guard case .array(let items) = value else {
            diagnostics.append(.wrongType(path, expected: "an array"))
            return []
        }
        return items
    }

    mutating func postbackMapping(_ value: JSONDocument, at path: String) -> (
        ConversionWindow, GoogleAdsSchema.PostbackMapping
    )? {
        let keys = [
            "postbackSequenceIndex", "coarseGrainedConversionValueMappings", "lockWindowCoarseConversionValue",
            "lockWindowFineConversionValue", "lockWindowEvent",
        ]
        guard let members = members(value, at: path, allowed: keys) else { return nil }
        var window = ConversionWindow.first
        var result = GoogleAdsSchema.PostbackMapping(coarse: [:], lock: nil, path: path)
        let coarseNames: [String: CoarseValue] = ["LOW": .low, "MEDIUM": .medium, "HIGH": .high]
        for (key, member) in members {
            let at = "\(path).\(key)"
            switch key {
            case "postbackSequenceIndex":
                // proto3 leaves 0 out: a missing index is postback 0.
                guard let index = integer(member, at: at) else { continue }
                guard let found = ConversionWindow.allCases.first(where: { $0.postbackSequenceIndex == index }) else {
                    diagnostics.append(.outOfRange(at, "\(index)", "0...2"))
                    continue
                }
                window = found
            case "coarseGrainedConversionValueMappings":
                let names = [
                    "lowConversionValueMapping": CoarseValue.low, "mediumConversionValueMapping": .medium,
                    "highConversionValueMapping": .high,
                ]
                guard let fields = self.members(member, at: at, allowed: names.keys.sorted()) else { continue }
                for (field, inner) in fields {
                    if let coarse = names[field], let mapping = mapping(inner, at: "\(at).\(field)") {
                        result.coarse[coarse] = mapping
                    }
                }
            case "lockWindowCoarseConversionValue":
                if let name = string(member, at: at) {
                    if let coarse = coarseNames[name] {
                        result.lock = .coarseValue(coarse)
                    } else {
                        diagnostics.append(.badEnum(at, name, coarseNames.keys.sorted()))
                    }
                }
            case "lockWindowFineConversionValue":
                if let fine = integer(member, at: at) { result.lock = .fineValue(fine) }
            case "lockWindowEvent":
                if let event = string(member, at: at) { result.lock = .event(event) }
            default: break
            }
        }
        if members.filter({ $0.0.hasPrefix("lockWindow") }).count > 1 {
            diagnostics.append(.oneLockTrigger(path))
        }
        return (window, result)
    }

    mutating func mapping(_ value: JSONDocument, at path: String) -> GoogleAdsSchema.Mapping? {
        let keys = ["minTimePostInstallHours", "maxTimePostInstallHours", "mappedEvents"]
        guard let members = members(value, at: path, allowed: keys) else { return nil }
        var result = GoogleAdsSchema.Mapping(minHours: 0, maxHours: 0, events: [], path: path)
        for (key, member) in members {
            let at = "\(path).\(key)"
            switch key {
            case "minTimePostInstallHours": result.minHours = integer(member, at: at) ?? 0
            case "maxTimePostInstallHours": result.maxHours = integer(member, at: at) ?? 0
            case "mappedEvents":
                result.events = array(member, at: at).enumerated().compactMap { mappedEvent($1, at: "\(at)[\($0)]") }
            default: break
            }
        }
        for (key, hours) in [
            ("minTimePostInstallHours", result.minHours), ("maxTimePostInstallHours", result.maxHours),
        ]
        where hours < 0 {
            diagnostics.append(.negative(Double(hours), at: "\(path).\(key)"))
        }
        if result.minHours > result.maxHours {
            diagnostics.append(
                .emptyRange(
                    "minTimePostInstallHours \(result.minHours)", "maxTimePostInstallHours \(result.maxHours)",
                    at: path))
        }
        return result
    }

    mutating func mappedEvent(_ value: JSONDocument, at path: String) -> GoogleAdsSchema.MappedEvent? {
        let keys = [
            "mappedEventName", "currencyCode", "eventRevenueRange", "eventRevenueValue", "eventOccurrenceRange",
            "eventCounter",
        ]
        guard let members = members(value, at: path, allowed: keys) else { return nil }
        var result = GoogleAdsSchema.MappedEvent(name: "")
        for (key, member) in members {
            let at = "\(path).\(key)"
            switch key {
            case "mappedEventName": result.name = string(member, at: at) ?? ""
            case "currencyCode":
                // Written into the schema as `value CODE`: three letters, never text of any other shape.
                guard let text = string(member, at: at) else { continue }
                guard CurrencyMinorUnits.isCodeShaped(text) else {
                    diagnostics.append(
                        .error(
                            .importJSON,
                            "'\(TerminalText.visible(text, oneLine: true))' is not an ISO 4217 currency code (three "
                                + "letters); write the code the app's amounts are in (EUR, USD)", at: nil, subject: at))
                    continue
                }
                result.currency = text.uppercased()
            case "eventRevenueValue": result.revenueValue = number(member, at: at)
            case "eventCounter": result.counter = integer(member, at: at)
            case "eventRevenueRange":
                guard let fields = self.members(member, at: at, allowed: ["minEventRevenue", "maxEventRevenue"]) else {
                    continue
                }
                for (field, inner) in fields {
                    let bound = number(inner, at: "\(at).\(field)").flatMap { $0 == 0 ? nil : $0 }
                    if field == "minEventRevenue" { result.minRevenue = bound } else { result.maxRevenue = bound }
                }
            case "eventOccurrenceRange":
                guard let fields = self.members(member, at: at, allowed: ["minEventCount", "maxEventCount"]) else {
                    continue
                }
                for (field, inner) in fields {
                    let bound = integer(inner, at: "\(at).\(field)").flatMap { $0 == 0 ? nil : $0 }
                    if field == "minEventCount" { result.minCount = bound } else { result.maxCount = bound }
                }
            default: break
            }
        }
        if result.name.isEmpty { diagnostics.append(.missing("mappedEventName", at: path)) }
        if let minimum = result.minCount, let maximum = result.maxCount, minimum > maximum {
            diagnostics.append(
                .emptyRange("minEventCount \(minimum)", "maxEventCount \(maximum)", at: "\(path).eventOccurrenceRange"))
        }
        if let minimum = result.minRevenue, let maximum = result.maxRevenue, minimum > maximum {
            diagnostics.append(
                .emptyRange(
                    "minEventRevenue \(ConditionNumber.text(minimum))",
                    "maxEventRevenue \(ConditionNumber.text(maximum))",
                    at: "\(path).eventRevenueRange"))
        }
        for (key, value) in [
            ("eventOccurrenceRange.minEventCount", result.minCount.map(Double.init)),
            ("eventOccurrenceRange.maxEventCount", result.maxCount.map(Double.init)),
            ("eventCounter", result.counter.map(Double.init)),
            ("eventRevenueRange.minEventRevenue", result.minRevenue),
            ("eventRevenueRange.maxEventRevenue", result.maxRevenue), ("eventRevenueValue", result.revenueValue),
        ] {
            if let value, value < 0 { diagnostics.append(.negative(value, at: "\(path).\(key)")) }
        }
        let revenue = members.filter { $0.0 == "eventRevenueRange" || $0.0 == "eventRevenueValue" }.count
        let count = members.filter { $0.0 == "eventOccurrenceRange" || $0.0 == "eventCounter" }.count
        if revenue > 1 || count > 1 { diagnostics.append(.oneOf(path)) }
        return result
    }
}

extension GoogleAdsSchema.MappedEvent {
    init(name: String) {
        self.init(
            name: name, currency: nil, minRevenue: nil, maxRevenue: nil, revenueValue: nil, minCount: nil,
            maxCount: nil, counter: nil)
    }
}

extension Diagnostic {
    fileprivate static func repeatedFineValue(_ fine: Int, at path: String) -> Diagnostic {
        .error(.importJSON, "fine value \(fine) has a mapping already; give each value one", at: nil, subject: path)
    }

    fileprivate static func repeatedPostback(_ window: ConversionWindow, at path: String) -> Diagnostic {
        .error(
            .importJSON,
            "postback \(window.postbackSequenceIndex) has a mapping already; give each postbackSequenceIndex one",
            at: nil, subject: path)
    }

    fileprivate static func oneLockTrigger(_ path: String) -> Diagnostic {
        .error(
            .importJSON,
            "a postback has one lock trigger (lockWindowEvent, lockWindowFineConversionValue or lockWindowCoarseConversionValue); keep one",
            at: nil, subject: path)
    }

    /// A range whose lower bound is above its upper one: no activity lies in it.
    fileprivate static func emptyRange(_ lower: String, _ upper: String, at path: String) -> Diagnostic {
        .error(
            .importJSON, "\(lower) is above \(upper): nothing lies in this range; swap them or correct one", at: nil,
            subject: path)
    }

    fileprivate static func negative(_ value: Double, at path: String) -> Diagnostic {
        .error(
            .importJSON, "\(ConditionNumber.text(value)) is below 0: hours, counts and revenue are 0 or more", at: nil,
            subject: path)
    }

    fileprivate static func oneOf(_ path: String) -> Diagnostic {
        .error(
            .importJSON,
            "a mapped event has one revenue bound (eventRevenueRange or eventRevenueValue) and one count bound (eventOccurrenceRange or eventCounter); keep one of each",
            at: nil, subject: path)
    }
}
