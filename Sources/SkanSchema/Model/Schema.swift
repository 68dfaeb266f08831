public import SkanCore

/// A checked schema: the single source of truth that code generation, tables and decoders consume.
/// Only the checker makes one, and only from a schema without errors.
public struct Schema: Hashable, Sendable {
    /// A fine value has bits 0...5.
    public static let fineValueRange: ClosedRange<Int> = 0...63

    /// The schema's name, which names the generated type.
    public var name: String
    /// The layout's version; postbacks must be decoded with the version that encoded them.
    public var version: Int
    /// Flags and fields in declaration order; a state holds one code per entry, in this order.
    public var fields: [Field]
    /// Bits that stay zero in this layout.
    public var reservedBits: [ReservedBits]
    /// Bits that belong to no declaration; the checker warns about them. A fine value with one set is invalid.
    public var unusedBits: [Int]
    /// The coarse rules of each window, tried top to bottom.
    public var coarseRulesByWindow: PerWindow<[CoarseRule]>
    /// When to lock each window; nil: never. A time lock (`lock window 1 after 36 hours`) is `hours >= 36`.
    public var lockByWindow: PerWindow<Condition?>
    /// The events the app logs, in declaration order; empty in a schema of bits alone.
    public var events: [Event]
    /// Where the declarations are written (not part of the meaning: sites always compare equal).
    public var sites: DeclarationSites

    /// A schema as the checker builds it.
    public init(
        name: String, version: Int, fields: [Field], reservedBits: [ReservedBits], unusedBits: [Int],
        coarseRulesByWindow: PerWindow<[CoarseRule]>, lockByWindow: PerWindow<Condition?>, events: [Event] = [],
        sites: DeclarationSites = DeclarationSites()
    ) {
        self.sites = sites
        self.events = events
        self.name = name
        self.version = version
        self.fields = fields
        self.reservedBits = reservedBits
        self.unusedBits = unusedBits
        self.coarseRulesByWindow = coarseRulesByWindow
        self.lockByWindow = lockByWindow
    }

    /// The coarse rules of `window`, in order; the first that holds decides.
    public func coarseRules(window: ConversionWindow) -> [CoarseRule] {
        coarseRulesByWindow[window]
    }

    /// When the app locks `window`, or nil when it never does.
    public func lockCondition(window: ConversionWindow) -> Condition? {
        lockByWindow[window]
    }

    /// The index in `fields` of the flag or field called `name`.
    public func fieldIndex(named name: String) -> Int? {
        fields.firstIndex { $0.name == name }
    }

    /// The flag or field called `name`.
    public func field(named name: String) -> Field? {
        fieldIndex(named: name).map { fields[$0] }
    }

    /// The index in `events` of the event called `name`.
    public func eventIndex(named name: String) -> Int? {
        events.firstIndex { $0.name == name }
    }

    /// Whether anything in the schema reads events or time: derived fields, or coarse and lock conditions on
    /// events and hours. Such a schema's coarse values and locks follow from the activity, not from the fine value
    /// alone.
    public var readsActivity: Bool {
        !events.isEmpty || fields.contains { $0.derivation != nil }
            || coarseRulesByWindow.values.joined().contains { $0.condition.readsActivity }
            || lockByWindow.values.contains { $0?.readsActivity ?? false }
    }
}

/// `bit 3` or `bits 1...2`; always within 0...5 in a checked schema.
public struct BitRange: Hashable, Sendable, CustomStringConvertible {
    /// The lowest bit, 0...5.
    public var lower: Int
    /// The highest bit, 0...5, at least `lower`.
    public var upper: Int

    /// A schema as the checker builds it.
    public init(_ lower: Int, _ upper: Int) {
        self.lower = lower
        self.upper = upper
    }

    /// How many bits.
    public var width: Int { upper - lower + 1 }
    /// The largest code that fits: 2^width - 1.
    public var maximumCode: Int { (1 << width) - 1 }
    /// The bits as a mask of the fine value.
    public var mask: Int { maximumCode << lower }
    /// `lower...upper`: bit 0 is the fine value's least significant bit.
    public var indices: ClosedRange<Int> { lower...upper }

    /// `bit 5` or `bits 1...2`, as the language writes it.
    public var description: String { width == 1 ? "bit \(lower)" : "bits \(lower)...\(upper)" }
}

/// Bits a layout holds at a fixed code: zero (`reserved bit 5`), kept free so that a later layout can mark
/// its values by setting them, or the code that marks this layout's values (`reserved bit 5 = 1`), so that
/// postbacks from versions live together can be told apart.
public struct ReservedBits: Hashable, Sendable {
    /// The bits no field uses; with a `code`, set to it in every fine value (a version marker).
    public var bits: BitRange
    /// Why they are reserved, if the schema says.
    public var description: String?
    /// The code every value of this layout holds in `bits`: 0 unless the schema says `= N`.
    public var code: Int

    /// A schema as the checker builds it.
    public init(bits: BitRange, description: String?, code: Int = 0) {
        self.bits = bits
        self.description = description
        self.code = code
    }

    /// `bits 4...5` or `bits 4...5 = 2`, as the language writes it.
    public var text: String { code == 0 ? bits.description : "\(bits) = \(code)" }

    /// Whether `bit` (one of `bits`) is set in every value of this layout.
    public func holdsSet(_ bit: Int) -> Bool { code >> (bit - bits.lower) & 1 == 1 }
}
