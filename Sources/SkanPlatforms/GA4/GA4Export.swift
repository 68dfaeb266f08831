import SkanCore
public import SkanSchema

/// A schema as the GA4 Admin API v1alpha's `SKAdNetworkConversionValueSchema` resource takes it in JSON
/// (properties.dataStreams.sKAdNetworkConversionValueSchema): one `PostbackWindow` per window, each a list of
/// `ConversionValues` that GA4 tries in order ("the first conversion value setting that evaluates to true will
/// be selected"), `fineValue` in window one only, `coarseValue` by enum name, one to three ANDed `EventMapping`s
/// (counts as int64 strings, values as numbers), `lockEnabled`.
public struct GA4Export: Sendable {
    /// Conversion values per window, at most ("It can have maximum of 128 entries").
    public static let maximumConversionValues = 128
    /// Event mappings per conversion value, at most.
    public static let maximumEventMappings = 3
    /// A display name's length, at most, in UTF-16 code units.
    public static let maximumDisplayName = 50
    /// An event name's length, at most, in UTF-16 code units.
    public static let maximumEventName = 40

    /// What the schema does not say.
    public struct Options: Sendable {
        /// Names each conversion value from the cases' descriptions (or `field case`), cut to 50 code units.
        public var displayNames = false
        /// `applyConversionValues`: GA4's SDK sets the values, and Google Ads accounts linked to the property
        /// read the schema.
        public var applyConversionValues = false

        /// Names off, applying off.
        public init(displayNames: Bool = false, applyConversionValues: Bool = false) {
            self.displayNames = displayNames
            self.applyConversionValues = applyConversionValues
        }
    }

    /// The first-match list the JSON was written from, entry for entry.
    public let list: FirstMatchList
    /// What could not be said (empty for an exact export), with names cut to their limit.
    public let losses: [ExportLoss]
    /// Display names cut to the limit, as warnings for the command to print.
    public let cutNames: [String]
    /// The resource's JSON, two-space indented.
    public let json: String

    /// `schema` written for GA4.
    public init(schema: Schema, options: Options) {
        self.init(schema: schema, options: options, work: ExportWork())
    }

    /// `schema` written for GA4 within `work`.
    init(schema: Schema, options: Options, work: ExportWork) {
        let list = FirstMatchList(
            schema: schema, entryLimit: Self.maximumConversionValues, eventLimit: Self.maximumEventMappings,
            work: work)
        var losses = list.losses
        for (index, event) in schema.events.enumerated() where event.name.utf16.count > Self.maximumEventName {
            losses.append(
                ExportLoss(
                    kind: .nameTooLong(event.name, limit: Self.maximumEventName), location: schema.sites.event(index),
                    fineValues: [], windows: ConversionWindow.allCases))
        }
        var cutNames: [String] = []
        let windows: [(String, ConversionWindow)] = [
            ("postbackWindowOne", .first), ("postbackWindowTwo", .second), ("postbackWindowThree", .third),
        ]
        let members: [(String, JSONValue)] =
            windows.map { key, window in
                let entries = list.windows[window]
                let values = entries.map { entry in
                    Self.conversionValue(
                        entry, schema: schema, displayNames: options.displayNames, window: window, cut: &cutNames)
                }
                return (
                    key,
                    JSONValue.object([
                        ("conversionValues", .array(values)),
                        ("postbackWindowSettingsEnabled", .bool(true)),
                    ])
                )
            } + [("applyConversionValues", .bool(options.applyConversionValues))]
        self.list = list
        self.losses = losses
        self.cutNames = cutNames
        self.json = JSONValue.object(members).rendered() + "\n"
    }

    static func coarseName(_ value: CoarseValue) -> String {
        "COARSE_VALUE_" + value.rawValue.uppercased()
    }

    private static func conversionValue(
        _ entry: FirstMatchEntry, schema: Schema, displayNames: Bool, window: ConversionWindow, cut: inout [String]
    ) -> JSONValue {
        var members: [(String, JSONValue)] = []
        if displayNames {
            let full = displayName(of: entry, schema: schema)
            let limited = Self.cut(full, toUTF16: maximumDisplayName)
            if limited != full { cut.append(full) }
            members.append(("displayName", .string(limited)))
        }
        if let fine = entry.fineValue { members.append(("fineValue", .integer(fine))) }
        // A platform's list holds no `nothing` entry (`FirstMatchList` ends before them).
        if let coarse = entry.coarseValue { members.append(("coarseValue", .string(coarseName(coarse)))) }
        let mappings = entry.when.bounds.map { eventMapping($0, schema: schema) }
        members.append(("eventMappings", .array(mappings.isEmpty ? [alwaysHolds] : mappings)))
        members.append(("lockEnabled", .bool(entry.lock)))
        return .object(members)
    }

    /// The longest start of `text` of whole characters within `limit` UTF-16 code units (GA4 counts those): a
    /// cut never splits a surrogate pair or an emoji sequence.
    static func cut(_ text: String, toUTF16 limit: Int) -> String {
        var units = 0
        var end = text.startIndex
        for index in text.indices {
            let next = text.index(after: index)
            units += text[index..<next].utf16.count
            if units > limit { break }
            end = next
        }
        return String(text[..<end])
    }

    /// An event mapping that always holds, for the last entry (an entry has at least one mapping): GA4 logs
    /// `first_open` itself, and any event was logged zero times or more.
    static let alwaysHolds = JSONValue.object([("eventName", .string("first_open")), ("minEventCount", .string("0"))])

    static func eventMapping(_ bounds: EventBounds, schema: Schema) -> JSONValue {
        var members: [(String, JSONValue)] = [("eventName", .string(schema.events[bounds.event].name))]
        // int64 fields are strings in proto3 JSON.
        if let count = bounds.minCount { members.append(("minEventCount", .string(String(count)))) }
        if let count = bounds.maxCount { members.append(("maxEventCount", .string(String(count)))) }
        if let value = bounds.minValue { members.append(("minEventValue", .number(value))) }
        if let value = bounds.maxValue { members.append(("maxEventValue", .number(value))) }
        return .object(members)
    }

    /// The cases of the fields the entry fixes, by their descriptions where written: `Revenue: 5..<20, funnel
    /// purchased`.
    static func displayName(of entry: FirstMatchEntry, schema: Schema) -> String {
        zip(schema.fields, entry.codes).compactMap { field, code in
            guard let code, let fieldCase = field.caseWithCode(code) else { return nil }
            if let description = fieldCase.description { return description }
            return field.isFlag ? (code == 1 ? field.name : "not \(field.name)") : "\(field.name) \(fieldCase.name)"
        }.joined(separator: ", ")
    }
}
