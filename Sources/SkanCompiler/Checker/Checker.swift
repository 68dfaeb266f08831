package import SkanCore
package import SkanSchema

/// Checks a parsed schema and resolves it into a `Schema`. Every check of the language reference runs,
/// each adding diagnostics; a `Schema` comes back only when no error was found.
package struct Checker {
    /// What a name in a condition refers to.
    struct Declared {
        var index: Int
        var location: SourceLocation
    }

    var diagnostics: [Diagnostic] = []
    /// Flags and fields in declaration order, including those with errors (their bits may be placeholders).
    var fields: [Field] = []
    var fieldNameLocations: [SourceLocation] = []
    /// Where each event's name is, by event index.
    var eventNameLocations: [SourceLocation] = []
    var reservedBits: [ReservedBits] = []
    var bitOwners: [Int: BitOwner] = [:]
    /// Names of flags and fields; the first declaration wins.
    var declared: [String: Declared] = [:]
    /// False once a bit or case error makes the set of valid states unknowable.
    var layoutIsSound = true
    /// False once a condition could not be resolved.
    var conditionsResolved = true
    /// Column names a field may not make, with the outputs that already have them.
    var reservedColumns: [String: [String]] = [:]
    /// The events, in declaration order, and where each is named.
    var events: [Event] = []
    var eventNames: [String: Declared] = [:]
    /// Every flag and field name with where it is first declared, known before any is checked, so that a derived
    /// condition naming a later one is told so.
    var allFieldNames: [String: SourceLocation] = [:]

    /// Checks `syntax`. `parseHadErrors` suppresses the whole-schema checks (unused bits, windows with no
    /// rules) that a declaration dropped by the parser would make misleading.
    package static func check(
        _ syntax: SchemaSyntax, parseHadErrors: Bool = false
    ) -> (schema: Schema?, diagnostics: [Diagnostic]) {
        var checker = Checker()
        checker.reservedColumns = outputColumns
        let schema = checker.run(syntax, parseHadErrors: parseHadErrors)
        return (schema, checker.diagnostics.sortedByLocation())
    }

    /// Column names a field may not make, with the outputs that have them: the decoding tables', the postback
    /// rows' and the SQL view's (which reads one table of lines, so it has every postback column but `file`).
    /// Applied by every compile, so the plugin's tool, `import` and every command refuse the same schemas.
    static let outputColumns: [String: [String]] = {
        var columns: [String: [String]] = [:]
        for name in TableColumn.reservedNames { columns[name] = ["skanc table"] }
        for column in PostbackColumn.allCases {
            let outputs = column == .file ? ["skanc postbacks"] : ["skanc postbacks", "skanc sql"]
            columns[column.name, default: []].append(contentsOf: outputs)
        }
        return columns
    }()

    mutating func report(_ diagnostic: Diagnostic) {
        diagnostics.append(diagnostic)
    }

    private mutating func run(_ syntax: SchemaSyntax, parseHadErrors: Bool) -> Schema? {
        for declaration in syntax.declarations {
            switch declaration {
            case .flag(let flag) where allFieldNames[flag.name.text] == nil:
                allFieldNames[flag.name.text] = flag.name.location
            case .field(let field) where allFieldNames[field.name.text] == nil:
                allFieldNames[field.name.text] = field.name.location
            default: break
            }
        }
        for case .event(let event) in syntax.declarations { declareEvent(event) }
        for declaration in syntax.declarations {
            switch declaration {
            case .flag(let flag): declareFlag(flag)
            case .field(let field): declareField(field)
            case .reserved(let reserved): declareReserved(reserved)
            case .event, .coarse, .lock: break
            }
        }
        checkColumnClashes()
        let unusedBits = findUnusedBits()
        let coarseBlocks = syntax.declarations.compactMap { if case .coarse(let block) = $0 { block } else { nil } }
        let locks = syntax.declarations.compactMap { if case .lock(let lock) = $0 { lock } else { nil } }
        let rules = resolveCoarseBlocks(coarseBlocks, schemaLocation: syntax.location, reportMissing: !parseHadErrors)
        let lockItems = resolveLocks(locks)

        let schema = Schema(
            name: syntax.name?.text ?? "", version: syntax.version?.value ?? 0, fields: fields,
            reservedBits: reservedBits, unusedBits: unusedBits,
            coarseRulesByWindow: rules.map { $0?.rules ?? [] }, lockByWindow: lockItems.map { $0?.value },
            events: events,
            sites: DeclarationSites(
                fields: fieldNameLocations, events: eventNameLocations, locks: lockItems.map { $0?.keyword }))
        if !parseHadErrors, layoutIsSound, conditionsResolved {
            checkCoverage(of: schema, blocks: rules)
            checkTimeReach(of: schema, blocks: rules)
        }
        // Whole-layout advice waits until the schema has no errors: until then the layout is still changing.
        if !parseHadErrors, !diagnostics.hasErrors, !unusedBits.isEmpty {
            // The fix marks them reserved, written before the first coarse block or lock.
            let rules = syntax.declarations.lazy.compactMap { declaration -> SourceLocation? in
                switch declaration {
                case .coarse(let block): block.keyword
                case .lock(let lock): lock.keyword
                default: nil
                }
            }.first
            report(.unusedBits(unusedBits, at: syntax.name?.location ?? syntax.location, reserveBefore: rules))
        }
        if parseHadErrors || diagnostics.hasErrors || syntax.name == nil || syntax.version == nil { return nil }
        return schema
    }

    /// Bits that no flag, field or reserved declaration owns.
    private func findUnusedBits() -> [Int] {
        var used = Set<Int>()
        for field in fields { used.formUnion(field.bits.indices) }
        for reserved in reservedBits { used.formUnion(reserved.bits.indices) }
        return (0...5).filter { !used.contains($0) }
    }
}

/// `bit 5`, `bits 3...5`, or `bits 1, 3 and 4`.
func describeBits(_ bits: [Int]) -> String {
    if bits.count == 1 { return "bit \(bits[0])" }
    if bits.last! - bits.first! == bits.count - 1 { return "bits \(bits.first!)...\(bits.last!)" }
    return "bits " + listed(bits.map(String.init))
}

/// The reserved declaration(s) that would cover `bits`.
func reservedSpelling(_ bits: [Int]) -> String {
    if bits.count == 1 { return "reserved bit \(bits[0])" }
    if bits.last! - bits.first! == bits.count - 1 { return "reserved bits \(bits.first!)...\(bits.last!)" }
    return bits.map { "reserved bit \($0)" }.joined(separator: "', '")
}

/// `a`, `a and b`, `a, b and c`.
func listed(_ items: [String]) -> String {
    guard items.count > 1 else { return items.first ?? "" }
    return items.dropLast().joined(separator: ", ") + " and " + items.last!
}

extension Substring {
    fileprivate var trimmingSpaces: Substring { drop { $0 == " " } }
}

extension Diagnostic {
    fileprivate static func unusedBits(_ bits: [Int], at location: SourceLocation, reserveBefore: SourceLocation?)
        -> Diagnostic
    {
        let them = bits.count == 1 ? "it" : "them"
        // One `reserved` line a run of bits, each on its own line, inserted where the rules begin.
        let lines = ValueRuns.text(bits).split(separator: ",").map { run in
            run.contains(".") ? "reserved bits \(run.trimmingSpaces)" : "reserved bit \(run.trimmingSpaces)"
        }
        let fixIts = reserveBefore.map { [FixIt(replacing: "", at: $0, with: lines.joined(separator: "\n") + "\n\n")] }
        return .warning(
            .unusedBits,
            "\(describeBits(bits)) belong\(bits.count == 1 ? "s" : "") to no declaration; declare \(them) or mark \(them) '\(reservedSpelling(bits))'",
            at: location, fixIts: fixIts ?? [])
    }
}
