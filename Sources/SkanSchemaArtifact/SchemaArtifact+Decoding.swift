import SkanCore
import SkanCrypto
import SkanSchema

extension SchemaArtifact {
    /// Why bytes are not an artifact this reader takes: what is wrong, where (a JSON path), and so what to do.
    public struct Invalid: Error, Equatable, CustomStringConvertible {
        /// The problem, with the member's path (`schema.fields[2].bits`).
        public var message: String
        /// `message`.
        public var description: String { message }
    }

    /// The artifact in `bytes`; `Invalid` for anything but an artifact of this format, in canonical form, whose
    /// schema is well formed (every index in range, every bit range inside the fine value) and whose hash holds.
    public init(bytes: some Collection<UInt8>) throws(Invalid) {
        guard bytes.count <= Self.maximumBytes else {
            throw Invalid(message: "an artifact has at most \(Self.maximumBytes) bytes; this has \(bytes.count)")
        }
        var reader = JSONReader(
            bytes: Array(bytes), maximumDepth: Self.maximumDepth, tooDeep: "nested deeper than an artifact nests")
        let document: JSONDocument
        do {
            document = try reader.document()
        } catch {
            throw Invalid(message: "not JSON: \(error.message)")
        }
        let root = Member(document, path: "")
        let format = try root["format"].integer()
        guard format == Self.format else {
            throw Invalid(
                message: "format \(format) is not one this reader knows (\(Self.format)): update skanc or the app")
        }
        let schema = try Self.decodeSchema(root["schema"])
        let appID = try root["app_id"].optionalString()
        let artifact = SchemaArtifact(schema: schema, appID: appID)
        guard try root["name"].string() == schema.name, try root["version"].integer() == schema.version else {
            throw Invalid(message: "name and version differ from the schema's")
        }
        guard try root["schema_sha256"].string() == artifact.schemaSHA256 else {
            throw Invalid(
                message: "schema_sha256 is not the hash of the schema: the file was changed after it was made")
        }
        // One file per schema: the canonical form only (so its hash names it), the final line feed optional.
        let written = artifact.bytes
        guard bytes.elementsEqual(written) || bytes.elementsEqual(written.dropLast()) else {
            throw Invalid(
                message: "not in canonical form (sorted keys, no white space, no member it does not know): write "
                    + "it with skanc compile")
        }
        self = artifact
    }

    private static func decodeSchema(_ node: Member) throws(Invalid) -> Schema {
        let events = try node["events"].items { event throws(Invalid) in
            Event(name: try event["name"].string(), currency: try event["currency"].optionalString())
        }
        let fieldNodes = try node["fields"].array()
        let scope = Scope(fields: fieldNodes.count, events: events.count)
        var fields: [Field] = []
        for field in fieldNodes { fields.append(try decodeField(field, scope: scope)) }
        let reserved = try node["reserved"].items { item throws(Invalid) in
            ReservedBits(
                bits: try decodeBits(item["bits"]), description: try item["description"].optionalString(),
                code: try item["code"].integer())
        }
        let unused = try node["unused_bits"].items { bit throws(Invalid) in
            try bit.integer(in: 0...5)
        }
        let coarse = try perWindow(node["coarse"]) { rules throws(Invalid) in
            try rules.items { rule throws(Invalid) in
                let value = try rule["value"].optionalString()
                guard value == nil || CoarseValue(rawValue: value!) != nil else {
                    throw Invalid(message: "\(rule.path).value is low, medium, high or null")
                }
                return CoarseRule(
                    value: value.flatMap(CoarseValue.init(rawValue:)),
                    condition: try decodeCondition(rule["when"], scope: scope),
                    location: SourceLocation(line: 0, column: 0, offset: 0), text: try rule["text"].string())
            }
        }
        let locks = try perWindow(node["locks"]) { lock throws(Invalid) in
            lock.isNull ? nil : try decodeCondition(lock, scope: scope)
        }
        return Schema(
            name: try node["name"].string(), version: try node["version"].integer(in: 0...Int(Int32.max)),
            fields: fields, reservedBits: reserved, unusedBits: unused, coarseRulesByWindow: coarse,
            lockByWindow: locks, events: events)
    }

    /// Three values, one per conversion window.
    private static func perWindow<Value>(_ node: Member, _ read: (Member) throws(Invalid) -> Value)
        throws(Invalid) -> PerWindow<Value>
    {
        let items = try node.array()
        guard items.count == ConversionWindow.allCases.count else {
            throw Invalid(message: "\(node.path) has one item per conversion window (3)")
        }
        var values: [Value] = []
        for item in items { values.append(try read(item)) }
        return PerWindow { values[$0.postbackSequenceIndex] }
    }

    /// How many fields and events indices may refer to.
    struct Scope {
        var fields: Int
        var events: Int
    }

    private static func decodeBits(_ node: Member) throws(Invalid) -> BitRange {
        let items = try node.array()
        guard items.count == 2 else { throw Invalid(message: "\(node.path) is [lowest bit, highest bit]") }
        let (lower, upper) = (try items[0].integer(in: 0...5), try items[1].integer(in: 0...5))
        guard lower <= upper else { throw Invalid(message: "\(node.path) runs from its lower bit up") }
        return BitRange(lower, upper)
    }

    private static func decodeField(_ node: Member, scope: Scope) throws(Invalid) -> Field {
        let kind: Field.Kind
        switch try node["kind"].string() {
        case "flag": kind = .flag
        case "cases": kind = .cases
        case "amount": kind = .buckets(.amount)
        case "count": kind = .buckets(.count)
        default: throw Invalid(message: "\(node.path).kind is flag, cases, amount or count")
        }
        let bits = try decodeBits(node["bits"])
        let cases = try node["cases"].items { item throws(Invalid) in
            FieldCase(
                name: try item["name"].string(), code: try item["code"].integer(in: 0...bits.maximumCode),
                description: try item["description"].optionalString(),
                bucket: item["bucket"].isNull ? nil : try decodeBucket(item["bucket"]))
        }
        let derivation = node["derivation"].isNull ? nil : try decodeDerivation(node["derivation"], scope: scope)
        return Field(
            name: try node["name"].string(), kind: kind, bits: bits,
            description: try node["description"].optionalString(), cases: cases, derivation: derivation)
    }

    private static func decodeBucket(_ node: Member) throws(Invalid) -> BucketRange {
        BucketRange(
            lower: try node["lower"].decimal(), upper: node["upper"].isNull ? nil : try node["upper"].decimal(),
            isHalfOpen: try node["half_open"].bool(), lowerText: try node["lower_text"].string(),
            upperText: try node["upper_text"].optionalString())
    }

    private static func decodeDerivation(_ node: Member, scope: Scope) throws(Invalid) -> FieldDerivation {
        switch try node["derive"].string() {
        case "flag": return .flag(try decodeCondition(node["when"], scope: scope))
        case "first_match":
            return .firstMatch(
                try node["when"].items { item throws(Invalid) in try decodeCondition(item, scope: scope) })
        case "buckets": return .buckets(try decodeSource(node["source"], scope: scope))
        case "count": return .count(try decodeSource(node["source"], scope: scope))
        default: throw Invalid(message: "\(node.path).derive is flag, first_match, buckets or count")
        }
    }

    private static func decodeSource(_ node: Member, scope: Scope) throws(Invalid) -> ActivitySource {
        guard let measure = ActivitySource.Measure(rawValue: try node["measure"].string()) else {
            throw Invalid(message: "\(node.path).measure is amount, count or days")
        }
        let events = try node["events"].items { event throws(Invalid) in
            try event.index(below: scope.events)
        }
        let kind: ActivitySource.Scope
        switch try node["scope"].string() {
        case "first_launch": kind = .sinceFirstLaunch
        case "window": kind = .inWindow
        case "within": kind = .within(hours: try node["hours"].decimal())
        default: throw Invalid(message: "\(node.path).scope is first_launch, window or within")
        }
        return ActivitySource(measure: measure, events: events, scope: kind)
    }
}
