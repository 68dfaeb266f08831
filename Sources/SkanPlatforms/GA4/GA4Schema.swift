public import SkanCore

/// A GA4 `SKAdNetworkConversionValueSchema` as read from its JSON (REST field names), strictly: a key the
/// resource does not have, or a value of the wrong type, is an error, as Google's client library reads it with
/// `ignore_unknown_fields=False`.
public struct GA4Schema: Sendable {
    /// One `EventMapping`: an event with inclusive count and value bounds; unset bounds are not checked.
    public struct EventMapping: Sendable, Equatable {
        /// `eventName`: the GA4 event.
        public var eventName: String
        /// `minEventCount`: at least this many times.
        public var minEventCount: Int?
        /// `maxEventCount`: at most this many times.
        public var maxEventCount: Int?
        /// `minEventValue`: a value of at least this.
        public var minEventValue: Double?
        /// `maxEventValue`: a value of at most this.
        public var maxEventValue: Double?

        /// Whether the event's count and sum meet the bounds: GA4's inclusive bounds as `EventBounds` reads
        /// any platform's (which event they are on does not matter to the test).
        public func holds(count: Double, sum: Double) -> Bool {
            EventBounds(
                event: 0, minCount: minEventCount, maxCount: maxEventCount, minValue: minEventValue,
                maxValue: maxEventValue
            ).holds(count: count, sum: sum)
        }
    }

    /// One `ConversionValues` entry.
    public struct ConversionValue: Sendable, Equatable {
        /// `displayName`.
        public var displayName: String?
        /// `fineValue`, in window one.
        public var fineValue: Int?
        /// `coarseValue`.
        public var coarseValue: CoarseValue
        /// `eventMappings`, all of which must hold.
        public var eventMappings: [EventMapping]
        /// `lockEnabled`.
        public var lockEnabled: Bool
    }

    /// One `PostbackWindow`.
    public struct PostbackWindow: Sendable, Equatable {
        /// `conversionValues`, tried in order.
        public var conversionValues: [ConversionValue]
        /// `postbackWindowSettingsEnabled`: off, the window takes window one's entries.
        public var settingsEnabled: Bool
    }

    /// `postbackWindowOne`, `Two` and `Three`; nil where the JSON has none.
    public var windows: PerWindow<PostbackWindow?>
    /// `applyConversionValues`.
    public var applyConversionValues: Bool

    /// The entries GA4 tries in `window`: its own when enabled; else, for window three, window two's when window
    /// two is set ("the schema will inherit settings from postbackWindowTwo"), and otherwise window one's.
    public func conversionValues(in window: ConversionWindow) -> [ConversionValue] {
        if window != .first, let own = windows[window], own.settingsEnabled { return own.conversionValues }
        if window == .third, windows[.second] != nil { return conversionValues(in: .second) }
        return windows[.first]?.conversionValues ?? []
    }

    /// The JSON key of the entries GA4 tries in `window` (`postbackWindowTwo.conversionValues`, or window one's
    /// where it inherits them), where errors about those entries point.
    public func entriesKey(in window: ConversionWindow) -> String {
        var source = window
        if window != .first, windows[window]?.settingsEnabled != true {
            source = window == .third && windows[.second] != nil ? entriesSource(of: .second) : .first
        }
        return ["postbackWindowOne", "postbackWindowTwo", "postbackWindowThree"][source.postbackSequenceIndex]
            + ".conversionValues"
    }

    private func entriesSource(of window: ConversionWindow) -> ConversionWindow {
        window != .first && windows[window]?.settingsEnabled == true ? window : .first
    }

    /// What GA4 sets in `window` for events counted `count(name)` times with sums `sum(name)`: the first entry
    /// whose mappings all hold, or nil when none does.
    public func selected(
        in window: ConversionWindow, count: (String) -> Double, sum: (String) -> Double
    ) -> ConversionValue? {
        conversionValues(in: window).first { value in
            value.eventMappings.allSatisfy { $0.holds(count: count($0.eventName), sum: sum($0.eventName)) }
        }
    }
}

extension GA4Schema {
    /// Reads the resource's JSON; every problem is reported with its key path, as many as found.
    public static func read(_ bytes: [UInt8]) throws(ConfigurationReadError) -> GA4Schema {
        var problems = GA4Problems()
        return try problems.resource(bytes) { $0.schema($1) }
    }
}

/// The reading of each message of the resource, collecting problems.
private struct GA4Problems: StrictJSONReading {
    var diagnostics: [Diagnostic] = []
    /// The conversion values of the window being read that have no event mapping: an error only once the window
    /// turns out enabled (Google requires one to three mappings "if the postback window is enabled").
    private var withoutMappings: [String] = []

    mutating func schema(_ value: JSONDocument) -> GA4Schema? {
        let keys = ["name", "postbackWindowOne", "postbackWindowTwo", "postbackWindowThree", "applyConversionValues"]
        guard let members = members(value, at: "", allowed: keys) else { return nil }
        var windows = PerWindow<GA4Schema.PostbackWindow?>(repeating: nil)
        var apply = false
        for (key, member) in members {
            switch key {
            case "postbackWindowOne": windows[.first] = window(member, at: key, window: .first)
            case "postbackWindowTwo": windows[.second] = window(member, at: key, window: .second)
            case "postbackWindowThree": windows[.third] = window(member, at: key, window: .third)
            case "applyConversionValues": apply = bool(member, at: key) ?? false
            case "name": _ = string(member, at: key)
            default: break
            }
        }
        if windows[.first] == nil { diagnostics.append(.missing("postbackWindowOne", at: "")) }
        return GA4Schema(windows: windows, applyConversionValues: apply)
    }

    mutating func window(_ value: JSONDocument, at path: String, window: ConversionWindow) -> GA4Schema.PostbackWindow?
    {
        guard let members = members(value, at: path, allowed: ["conversionValues", "postbackWindowSettingsEnabled"])
        else { return nil }
        var result = GA4Schema.PostbackWindow(conversionValues: [], settingsEnabled: false)
        withoutMappings = []
        for (key, member) in members {
            switch key {
            case "conversionValues":
                guard case .array(let items) = member else {
                    diagnostics.append(.wrongType("\(path).\(key)", expected: "an array"))
                    continue
                }
                if items.count > GA4Export.maximumConversionValues {
                    diagnostics.append(.tooMany("\(path).\(key)", items.count, GA4Export.maximumConversionValues))
                }
                result.conversionValues = items.enumerated().compactMap {
                    conversionValue($1, at: "\(path).\(key)[\($0)]", window: window)
                }
            case "postbackWindowSettingsEnabled":
                result.settingsEnabled = bool(member, at: "\(path).\(key)") ?? false
                // The first window's entries set the fine value: the API refuses a schema that turns them off.
                if window == .first, case .bool(false) = member {
                    diagnostics.append(.windowOneDisabled("\(path).\(key)"))
                }
            default: break
            }
        }
        if window == .first || result.settingsEnabled {
            for path in withoutMappings {
                diagnostics.append(.tooMany(path, 0, GA4Export.maximumEventMappings, atLeast: 1))
            }
        }
        return result
    }

    mutating func conversionValue(_ value: JSONDocument, at path: String, window: ConversionWindow)
        -> GA4Schema.ConversionValue?
    {
        let keys = ["displayName", "fineValue", "coarseValue", "eventMappings", "lockEnabled"]
        guard let members = members(value, at: path, allowed: keys) else { return nil }
        var result = GA4Schema.ConversionValue(
            displayName: nil, fineValue: nil, coarseValue: .low, eventMappings: [], lockEnabled: false)
        var coarse: CoarseValue?
        for (key, member) in members {
            let at = "\(path).\(key)"
            switch key {
            case "displayName": result.displayName = string(member, at: at)
            case "fineValue":
                result.fineValue = integer(member, at: at)
                if let fine = result.fineValue, !(0...63).contains(fine) {
                    diagnostics.append(.outOfRange(at, "\(fine)", "0...63"))
                }
                if window != .first { diagnostics.append(.fineValueOutsideWindowOne(at)) }
            case "coarseValue":
                let names: [String: CoarseValue] = [
                    "COARSE_VALUE_LOW": .low, "COARSE_VALUE_MEDIUM": .medium, "COARSE_VALUE_HIGH": .high,
                ]
                // proto3 JSON takes an enum by name or by number (LOW = 1, MEDIUM = 2, HIGH = 3), as Google's
                // library does.
                let numbers: [Double: CoarseValue] = [1: .low, 2: .medium, 3: .high]
                if case .number(let number) = member {
                    coarse = numbers[number]
                    if coarse == nil { diagnostics.append(.badEnum(at, "\(number)", ["1", "2", "3"])) }
                } else if let name = string(member, at: at) {
                    coarse = names[name]
                    if coarse == nil { diagnostics.append(.badEnum(at, name, names.keys.sorted())) }
                }
            case "eventMappings":
                guard case .array(let items) = member else {
                    diagnostics.append(.wrongType(at, expected: "an array"))
                    continue
                }
                result.eventMappings = items.enumerated().compactMap { eventMapping($1, at: "\(at)[\($0)]") }
            case "lockEnabled": result.lockEnabled = bool(member, at: at) ?? false
            default: break
            }
        }
        result.coarseValue = coarse ?? .low
        if coarse == nil, !members.contains(where: { $0.0 == "coarseValue" }) {
            diagnostics.append(.missing("coarseValue", at: path))
        }
        if window == .first, !members.contains(where: { $0.0 == "fineValue" }) {
            diagnostics.append(.missing("fineValue", at: path))
        }
        let mappings = members.first { $0.0 == "eventMappings" }.map { member -> Int in
            if case .array(let items) = member.1 { items.count } else { 1 }
        }
        let count = mappings ?? 0
        if count > GA4Export.maximumEventMappings {
            diagnostics.append(.tooMany("\(path).eventMappings", count, GA4Export.maximumEventMappings, atLeast: 1))
        } else if count == 0 {
            withoutMappings.append("\(path).eventMappings")
        }
        return result
    }

    mutating func eventMapping(_ value: JSONDocument, at path: String) -> GA4Schema.EventMapping? {
        let keys = ["eventName", "minEventCount", "maxEventCount", "minEventValue", "maxEventValue"]
        guard let members = members(value, at: path, allowed: keys) else { return nil }
        var result = GA4Schema.EventMapping(eventName: "")
        for (key, member) in members {
            let at = "\(path).\(key)"
            switch key {
            case "eventName": result.eventName = string(member, at: at) ?? ""
            case "minEventCount": result.minEventCount = integer(member, at: at)
            case "maxEventCount": result.maxEventCount = integer(member, at: at)
            case "minEventValue": result.minEventValue = number(member, at: at)
            case "maxEventValue": result.maxEventValue = number(member, at: at)
            default: break
            }
        }
        if result.eventName.isEmpty { diagnostics.append(.missing("eventName", at: path)) }
        if !members.contains(where: { keys.dropFirst().contains($0.0) }) {
            diagnostics.append(.noBound(path))
        }
        return result
    }

}

extension GA4Schema.EventMapping {
    init(eventName: String) {
        self.init(eventName: eventName, minEventCount: nil, maxEventCount: nil, minEventValue: nil, maxEventValue: nil)
    }
}

extension Diagnostic {
    fileprivate static func windowOneDisabled(_ path: String) -> Diagnostic {
        .error(
            .importJSON, "postbackWindowOne cannot be turned off: its entries give the fine value; set it to true",
            at: nil, subject: path)
    }

    fileprivate static func fineValueOutsideWindowOne(_ path: String) -> Diagnostic {
        .error(.importJSON, "a fine value belongs to postbackWindowOne only; remove it", at: nil, subject: path)
    }

    fileprivate static func tooMany(_ path: String, _ count: Int, _ limit: Int, atLeast: Int = 0) -> Diagnostic {
        .error(
            .importJSON, "\(count) entries; the resource allows \(atLeast > 0 ? "\(atLeast) to " : "at most ")\(limit)",
            at: nil, subject: path)
    }

    fileprivate static func noBound(_ path: String) -> Diagnostic {
        .error(
            .importJSON,
            "an event mapping sets at least one of minEventCount, maxEventCount, minEventValue, maxEventValue",
            at: nil, subject: path)
    }
}
