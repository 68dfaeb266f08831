import SkanCore
import SkanPostbacks
import SkanSchema

extension PostbackReport {
    /// The report as JSON, the interface for scripts and for the warehouse views' parity:
    /// `{"groups": [{"by": {...}, "postbacks": N, "by_window": {"1": {...}, ...}, "revenue": [...]}],
    /// "not_ok": {STATUS: N}}` with the schema, the grouping and the line counts around them.
    public var json: String { String(decoding: jsonBytes, as: UTF8.self) }

    /// `json` as UTF-8, made without a string: a report of thousands of campaigns runs to tens of megabytes.
    public var jsonBytes: [UInt8] {
        var out: [UInt8] = []
        writeJSON { out.append(contentsOf: $0) }
        return out
    }

    /// `json` handed to `write` in pieces of about 64 KiB, each group rendered when it is written: a report of
    /// 200,000 groups runs to 500 MB, which need not be held (nor the tree of every group) to be written.
    public func writeJSON(_ write: ([UInt8]) -> Void) {
        let windows = WindowTemplate(groups.first?.windows.first)
        // The groups are written in the place of this mark (NUL is escaped in any JSON text, so it is unique).
        let mark: [UInt8] = [0, 0x67, 0]
        let root = jsonRoot(groups: groups.isEmpty ? .array([]) : .rendered(mark))
        var frame: [UInt8] = []
        root.render(into: &frame, indent: 0)
        frame.append(0x0A)
        guard !groups.isEmpty, let at = frame.firstRange(of: mark) else { return write(frame) }
        write(Array(frame[..<at.lowerBound]))
        // As `JSONValue.array` renders objects at the root's second level: one a line, indented by four.
        var chunk: [UInt8] = Array("[\n".utf8)
        chunk.reserveCapacity((1 << 16) + 3 * windows.size + 512)
        for (index, group) in groups.enumerated() {
            if index > 0 { chunk.append(contentsOf: ",\n".utf8) }
            chunk.append(contentsOf: repeatElement(0x20, count: 4))
            Self.json(group, windows, costCurrency: costCurrency, named: named).render(into: &chunk, indent: 4)
            if chunk.count >= 1 << 16 {
                write(chunk)
                chunk.removeAll(keepingCapacity: true)
            }
        }
        chunk.append(contentsOf: "\n  ]".utf8)
        write(chunk)
        write(Array(frame[at.upperBound...]))
    }

    /// The report's object, with `groups` as its groups' member.
    func jsonRoot(groups: JSONValue) -> JSONValue {
        .object(
            [
                ("schema", .string(versions.schemas.last!.name)),
                ("versions", .array(versions.schemas.map { .integer($0.version) })),
                ("grouped_by", .array(groupings.map { .string($0.rawValue) })),
                ("zero_is_null", .bool(zeroIsNull)),
            ] + (costCurrency.map { [("cost_currency", JSONValue.string($0))] } ?? []) + [
                ("lines", .integer(lines)),
                ("ok", .integer(ok)),
                ("groups", groups),
            ] + (trend.isEmpty ? [] : [("trend", trendJSON)]) + [
                ("not_ok", .object(notOK.map { ($0.status.code, .integer($0.rows)) })),
                ("notes", .array(notes.map(JSONValue.string))),
            ])
    }

    static func json(_ group: Group, _ windows: WindowTemplate, costCurrency: String? = nil, named: Bool = false)
        -> JSONValue
    {
        .object(
            [("by", .object(group.by.map { ($0.name, .optional($0.text)) }))]
                + (named ? [("name", .optional(group.name))] : []) + [
                    ("postbacks", .integer(group.postbacks)),
                    ("by_window", .object(group.windows.map { (String($0.number), windows.json($0)) })),
                    ("revenue", .array(group.revenue.map(json))),
                ] + (costCurrency == nil ? [] : [("cost", group.cost.map(json) ?? .null)]))
    }

    private static func json(_ cost: Cost) -> JSONValue {
        let ratio = { (value: Double?) in value.map(JSONValue.number) ?? .null }
        return .object([
            ("spend", .decimal(cost.spend.text)), ("rows", .integer(cost.rows)),
            ("per_install", ratio(cost.perInstall)),
            (
                "return_on_spend",
                .array(
                    cost.returnOnSpend.map {
                        .object([
                            ("field", .string($0.field)), ("low", ratio($0.low)), ("high", ratio($0.high)),
                            ("estimate", ratio($0.estimate)),
                        ])
                    })
            ),
        ])
    }

    /// A window's JSON, its counts from `counts` in the order of `Window.countsInOrder`.
    static func json(_ window: Window, counts: inout IndexingIterator<[JSONValue]>) -> JSONValue {
        .object([
            ("postbacks", counts.next()!),
            ("contributed", counts.next()!),
            ("reengagements", counts.next()!),
            ("installs", counts.next()!),
            ("with_fine_value", counts.next()!),
            ("with_coarse_value", counts.next()!),
            ("without_value", counts.next()!),
            ("tiers", .object(tierNames.map { ($0, counts.next()!) })),
            ("fields", .object(window.fields.map { ($0.column, .object($0.cases.map { ($0.name, counts.next()!) })) })),
            ("coarse", .object(coarseNames.map { ($0, counts.next()!) })),
        ])
    }

    private static func json(_ revenue: Revenue) -> JSONValue {
        // No postback shows a fine value: its revenue is unknown, null, never 0 (the installs' bounds still hold).
        let known = revenue.postbacks > 0
        return .object([
            ("field", .string(revenue.field)),
            ("currency", .optional(revenue.currency)),
            ("postbacks", .integer(revenue.postbacks)),
            ("low", known ? .decimal(revenue.low.text) : .null),
            ("mid", known ? .decimal(revenue.mid.text) : .null),
            ("high", known ? revenue.high.map { .decimal($0.text) } ?? .null : .null),
            (
                "ranges",
                .array(
                    revenue.ranges.map { range in
                        .object([
                            ("case", .string(range.name)), ("range", .string(range.range)),
                            ("postbacks", .integer(range.postbacks)), ("low", .decimal(range.low.text)),
                            ("mid", .decimal(range.mid.text)), ("high", range.high.map { .decimal($0.text) } ?? .null),
                        ])
                    })
            ),
            ("installs", json(revenue.installs)),
            ("reengagements", revenue.reengagements.map(json) ?? .null),
        ])
    }

    private static func json(_ installs: InstallRevenue) -> JSONValue {
        let bound = { (bound: ReportColumns.AmountBound) -> [(String, JSONValue)] in
            [("low", .decimal(bound.low.text)), ("high", bound.high.map { .decimal($0.text) } ?? .null)]
        }
        let json = { (estimate: Estimate) -> JSONValue in
            .object([
                ("installs", .integer(estimate.installs)), ("method", .string(estimate.method.rawValue)),
                ("pooled", .bool(estimate.pooled)),
                ("mid", .decimal(estimate.mid.text)), ("low", .decimal(estimate.low.text)),
                ("high", estimate.high.map { .decimal($0.text) } ?? .null),
                ("confidence", .integer(Estimate.confidence)),
            ])
        }
        return .object(
            [
                ("postbacks", .integer(installs.installs)), ("with_fine_value", .integer(installs.withFineValue)),
                (
                    "from_coarse",
                    .array(
                        installs.fromCoarse.map { share in
                            .object(
                                [("coarse", .string(share.coarse.rawValue)), ("postbacks", .integer(share.postbacks))]
                                    + bound(share.each))
                        })
                ),
                ("without_value", .integer(installs.withoutValue)),
            ] + bound(ReportColumns.AmountBound(low: installs.low, high: installs.high)) + [
                ("estimate", installs.total.map(json) ?? .null),
                ("estimate_without_fine_value", installs.estimate.map(json) ?? .null),
            ])
    }

    /// The trend: per day received, window 1's installs and what their postbacks carried.
    private var trendJSON: JSONValue {
        .array(
            trend.map { day in
                .object([
                    ("day", .string(day.day)), ("installs", .integer(day.counts.installs)),
                    ("contributed", .integer(day.counts.contributed)),
                    ("reengagements", .integer(day.counts.reengagements)),
                    ("with_fine_value", .integer(day.counts.withFineValue)),
                    ("with_coarse_value", .integer(day.counts.withCoarseValue)),
                    ("without_value", .integer(day.counts.withoutValue)),
                ])
            })
    }

    /// The names of the tier counts: `0` to `3`, then `unknown` for postbacks whose fields tell none.
    public static let tierNames = ["0", "1", "2", "3", "unknown"]
    /// The names of the coarse counts.
    public static let coarseNames = CoarseValue.allCases.map(\.rawValue)
}
