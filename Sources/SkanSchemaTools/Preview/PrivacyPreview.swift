import SkanCompiler
public import SkanCore
public import SkanSchema

/// What each postback shows of a schema, window by window and tier by tier (`skanc preview`): whether there is
/// a postback, what it carries, and how each field can be read back from it: from the fine value, from the
/// coarse value alone (when each coarse value the window gives leaves one case of the field), or not at all.
public struct PrivacyPreview: Sendable {
    /// How a field can be read in a cell.
    public enum Reading: String, Sendable {
        case fine, coarse, none
    }

    /// One window at one tier.
    public struct Cell: Sendable {
        /// The conversion window the cell's postback is sent for.
        public var window: ConversionWindow
        /// The postback data tier.
        public var tier: PostbackDataTier
        /// Whether the system sends the postback.
        public var postback: Bool
        /// What it carries.
        public var carries: [PostbackDataTier.Carried]
        /// The source identifier's digits, fewest to most; nil without a postback.
        public var sourceIdentifierDigits: ClosedRange<Int>?
        /// How each field reads, in declaration order.
        public var fields: [(name: String, reading: Reading)]
        /// For each coarse value, how many states (valid fine values) can give it in the window, when the
        /// postback carries a coarse value.
        public var coarseStates: [(value: CoarseValue, states: Int)]?
        /// How many states can send nothing in the window (a `nothing` rule): no update, so in window 1 a
        /// postback without their value, in windows 2 and 3 none at all.
        public var statesSendingNothing: Int
    }

    /// The schema whose fields the preview sorts into what each tier shows.
    public let schema: Schema
    /// Twelve cells: windows 1 to 3, each at tiers 0 to 3.
    public let cells: [Cell]

    /// The preview of `schema`.
    public init(schema: Schema) {
        self.schema = schema
        let states = (0...63).compactMap { try? schema.decode(fineValue: $0).get() }
        var cells: [Cell] = []
        for window in ConversionWindow.allCases {
            let possible = states.map { Self.possibleCoarseValues(schema, window: window, codes: $0.codes) }
            let coarseStates = [CoarseValue.low, .medium, .high].map { value in
                (value, possible.filter { $0.contains(value) }.count)
            }
            let silent = states.filter { Self.canSendNothing(schema, window: window, codes: $0.codes) }.count
            // Windows 2 and 3 get a postback only after an update; where no state ever sends, none comes.
            let neverSends = window != .first && possible.allSatisfy(\.isEmpty)
            let coarseReadable = schema.fields.indices.map { field in
                [CoarseValue.low, .medium, .high].allSatisfy { value in
                    Set(zip(states, possible).filter { $0.1.contains(value) }.map { $0.0.codes[field] }).count <= 1
                }
            }
            for tier in PostbackDataTier.allCases {
                let carries = tier.carries(in: window)
                let postback = tier.sendsPostback(in: window) && !neverSends
                let fields = schema.fields.enumerated().map { index, field -> (String, Reading) in
                    if !postback { return (field.name, .none) }
                    if carries.contains(.fineValue) { return (field.name, .fine) }
                    if carries.contains(.coarseValue), coarseReadable[index] { return (field.name, .coarse) }
                    return (field.name, .none)
                }
                cells.append(
                    Cell(
                        window: window, tier: tier, postback: postback, carries: carries,
                        sourceIdentifierDigits: tier.sourceIdentifierDigits(in: window), fields: fields,
                        coarseStates: carries.contains(.coarseValue) ? coarseStates : nil,
                        statesSendingNothing: silent))
            }
        }
        self.cells = cells
    }

    /// The coarse values a state can give in `window`: the first rule its codes decide true, and every rule
    /// before it that turns on events or time.
    static func possibleCoarseValues(_ schema: Schema, window: ConversionWindow, codes: [Int]) -> Set<CoarseValue> {
        var possible = Set<CoarseValue>()
        for rule in schema.coarseRules(window: window) {
            switch rule.condition.decided(for: codes) {
            case true?:
                if let value = rule.value { possible.insert(value) }
                return possible
            case nil: if let value = rule.value { possible.insert(value) }
            case false?: continue
            }
        }
        return possible
    }

    /// Whether a state can send nothing in `window`: a `nothing` rule is its first that holds, or may be (before
    /// it, only rules that turn on events or time).
    static func canSendNothing(_ schema: Schema, window: ConversionWindow, codes: [Int]) -> Bool {
        for rule in schema.coarseRules(window: window) {
            switch rule.condition.decided(for: codes) {
            case true?: return rule.value == nil
            case nil: if rule.value == nil { return true }
            case false?: continue
            }
        }
        return false
    }
}
