public import SkanCore
public import SkanPostbacks
import SkanSchema

/// Rules over a report that say when something changed under the team (`skanc report --check RULES`), for cron
/// and CI: the null share of a window moving from one day to the next, postbacks failing verification, fine values
/// of no live schema version, a campaign's installs falling to zero. A rules file holds one rule a line (`#` starts
/// a comment):
///
///     null-share-change WINDOW POINTS   window 1-3: its null share moved more than POINTS percentage points
///                                       from the day before the latest to the latest
///     failing-verification PERCENT      more than PERCENT% of the lines read fail verification (bad-signature)
///     unknown-version PERCENT           more than PERCENT% of the lines read have a fine value of no live
///                                       version (invalid-fine)
///     installs-to-zero                  a campaign had installs the day before the latest and none on it
///
/// Days are the UTC days `skanc serve` received the postbacks on (`received_at`): the latest day with a postback
/// and the one before it.
public struct ReportCheck: Sendable {
    /// One rule, as written.
    public enum Rule: Sendable, Equatable {
        case nullShareChange(window: Int, points: Double)
        case failingVerification(percent: Double)
        case unknownVersion(percent: Double)
        case installsToZero
    }

    /// Why a rules file cannot be used, at which line, and what to write instead.
    public struct Invalid: Error, Equatable {
        /// What is wrong and what to write.
        public var message: String
        /// The line of the rules file it is on.
        public var line: Int
    }

    /// What a rule came to: whether it fired, and what it saw.
    public struct Finding: Sendable, Equatable {
        /// The rule's line in the file.
        public var line: Int
        /// The rule, as read.
        public var rule: Rule
        /// Whether what it saw trips it.
        public var fired: Bool
        /// What was measured, in words: `window 1 null share 12.0% on 2026-12-04, 31.5% on 2026-12-05`.
        public var detail: String
    }

    /// The rules, with their lines.
    public let rules: [(line: Int, rule: Rule)]

    /// What a report must be grouped by for the rules: each network's campaigns, per day.
    public static let groupings: [PostbackGrouping] = [.adNetworkID, .campaign, .day]

    /// The rules of a file's text.
    public init(text: String) throws(Invalid) {
        var rules: [(Int, Rule)] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = index + 1
            let words = raw.prefix { $0 != "#" }.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
                .map(String.init)
            guard let name = words.first else { continue }
            func number(_ at: Int, _ what: String, _ range: ClosedRange<Double>) throws(Invalid) -> Double {
                guard words.count == 3, let value = Double(words[at]), range.contains(value) else {
                    throw Invalid(message: "write '\(name) \(what)' (\(Self.usage[name] ?? ""))", line: line)
                }
                return value
            }
            switch name {
            case "null-share-change":
                let window = try number(1, "WINDOW POINTS", 1...3)
                guard window == window.rounded() else {
                    throw Invalid(message: "the window is 1, 2 or 3", line: line)
                }
                rules.append(
                    (line, .nullShareChange(window: Int(window), points: try number(2, "WINDOW POINTS", 0...100))))
            case "failing-verification":
                guard words.count == 2, let value = Double(words[1]), (0...100).contains(value) else {
                    throw Invalid(message: "write 'failing-verification PERCENT' (0 to 100)", line: line)
                }
                rules.append((line, .failingVerification(percent: value)))
            case "unknown-version":
                guard words.count == 2, let value = Double(words[1]), (0...100).contains(value) else {
                    throw Invalid(message: "write 'unknown-version PERCENT' (0 to 100)", line: line)
                }
                rules.append((line, .unknownVersion(percent: value)))
            case "installs-to-zero":
                guard words.count == 1 else { throw Invalid(message: "installs-to-zero takes nothing", line: line) }
                rules.append((line, .installsToZero))
            default:
                throw Invalid(
                    message: "'\(name)' is no rule; the rules are " + Self.names.joined(separator: ", "), line: line)
            }
        }
        guard !rules.isEmpty else { throw Invalid(message: "no rule in the file", line: 1) }
        self.rules = rules
    }

    static let names = ["null-share-change", "failing-verification", "unknown-version", "installs-to-zero"]
    static let usage = ["null-share-change": "a window 1 to 3, then percentage points 0 to 100"]

    /// Each rule over `report` (grouped by `groupings`).
    public func evaluate(_ report: PostbackReport) -> [Finding] {
        rules.map { line, rule in
            let (fired, detail) = Self.evaluate(rule, report)
            return Finding(line: line, rule: rule, fired: fired, detail: detail)
        }
    }

    private static func evaluate(_ rule: Rule, _ report: PostbackReport) -> (Bool, String) {
        switch rule {
        case .failingVerification(let percent):
            return share(of: .badSignature, in: report, above: percent, "fail verification")
        case .unknownVersion(let percent):
            return share(of: .invalidFine, in: report, above: percent, "have a fine value of no live version")
        case .nullShareChange(let window, let points):
            let days = Self.days(report)
            guard days.count >= 2 else { return (false, "fewer than two days with receipt times: nothing to compare") }
            let (before, latest) = (days[days.count - 2], days[days.count - 1])
            func share(_ wanted: String) -> Double? {
                let windows = report.groups.filter { Self.day(of: $0) == wanted }.map { $0.windows[window - 1] }
                let won = windows.reduce(0) { $0 + $1.won }
                let without = windows.reduce(0) { $0 + $1.withoutValue }
                return won == 0 ? nil : 100 * Double(without) / Double(won)
            }
            guard let old = share(before), let new = share(latest) else {
                return (false, "window \(window) has no postback on \(before) or \(latest)")
            }
            return (
                abs(new - old) > points,
                "window \(window) null share \(percentText(old)) on \(before), \(percentText(new)) on \(latest)"
            )
        case .installsToZero:
            let days = Self.days(report)
            guard days.count >= 2 else { return (false, "fewer than two days with receipt times: nothing to compare") }
            let (before, latest) = (days[days.count - 2], days[days.count - 1])
            var installs: [String: (before: Int, latest: Int)] = [:]
            for group in report.groups {
                let day = day(of: group)
                guard day == before || day == latest else { continue }
                let campaign = group.by.filter { $0.column != .receivedAt }.map { $0.text ?? "" }.joined(
                    separator: " / ")
                var counts = installs[campaign, default: (0, 0)]
                if day == before {
                    counts.before += group.windows[0].installs
                } else {
                    counts.latest += group.windows[0].installs
                }
                installs[campaign] = counts
            }
            let stopped = installs.filter { $0.value.before > 0 && $0.value.latest == 0 }.keys.sorted()
            return (
                !stopped.isEmpty,
                stopped.isEmpty
                    ? "every campaign with installs on \(before) has some on \(latest)"
                    : "no install on \(latest) for " + stopped.joined(separator: ", ")
            )
        }
    }

    private static func share(
        of status: PostbackStatus, in report: PostbackReport, above percent: Double, _ what: String
    )
        -> (Bool, String)
    {
        let rows = report.notOK.first { $0.status == status }?.rows ?? 0
        guard report.lines > 0 else { return (false, "no line read") }
        let share = 100 * Double(rows) / Double(report.lines)
        return (share > percent, "\(percentText(share)) of \(report.lines) lines \(what) (\(rows))")
    }

    /// The days the report's groups were received on, in order (a group with no receipt time has none).
    private static func days(_ report: PostbackReport) -> [String] {
        Set(report.groups.compactMap(day(of:))).sorted()
    }

    private static func day(of group: PostbackReport.Group) -> String? {
        group.by.first { $0.column == .receivedAt }?.text.map { String($0.prefix(10)) }
    }

    private static func percentText(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)%"
    }
}

extension DiagnosticCode {
    /// A `report --check` rules file that cannot be read as rules.
    public static let checkRulesInvalid = DiagnosticCode("check-rules-invalid")
}
