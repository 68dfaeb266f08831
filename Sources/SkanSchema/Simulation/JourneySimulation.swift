public import SkanCore

/// `skanc simulate`: the reference semantics run over a journey (JSON lines in hour order: events logged, fields
/// the app sets, or an hour when the app opens), and what the updater would do at each line: the window, the
/// values, the lock, and whether it sends (not when the window already has these values or is locked).
public struct JourneySimulation {
    /// What the updater does at one journey line.
    public struct Step: Sendable {
        /// The line's number in the journey.
        public var line: Int
        /// Its hour.
        public var hour: Double
        /// The schema evaluated on the activity so far, at the hour.
        public var evaluation: ActivityEvaluation
        /// Whether the updater sends: a window, a state that sends (no `nothing` rule holds), not locked, and values
        /// it does not have yet.
        public var sent: Bool
    }

    /// The schema the journey runs through (its events, fields and coarse rules).
    public let schema: Schema
    /// One step per journey line that could be read.
    public private(set) var steps: [Step] = []
    /// One error per line that could not (with its line and a code); nothing is skipped silently.
    public private(set) var diagnostics: [Diagnostic] = []

    /// A journey line read: its number and what it says, or why it cannot be read.
    package struct ReadLine {
        /// The line's number in the journey.
        package var number: Int
        /// The line, or the error that it is not one.
        package var line: Result<JourneyLine, JourneyLine.Malformed>
    }

    /// The journey lines of `journey` (the bytes of a JSON-lines file), read once: blank lines and lines that are
    /// a `#` comment are no journey lines.
    package static func read(_ journey: [UInt8]) -> [ReadLine] {
        var lines: [ReadLine] = []
        var number = 0
        // A UTF-8 byte order mark (Excel's "CSV UTF-8", Notepad) is no part of the first line.
        var start = journey.starts(with: [0xEF, 0xBB, 0xBF]) ? journey.startIndex + 3 : journey.startIndex
        while start <= journey.endIndex {
            let end = journey[start...].firstIndex(of: 0x0A) ?? journey.endIndex
            defer { start = end + 1 }
            number += 1
            var line = journey[start..<end]
            while let last = line.last, last == 0x0D || last == 0x20 || last == 0x09 { line = line.dropLast() }
            while let first = line.first, first == 0x20 || first == 0x09 { line = line.dropFirst() }
            guard !line.isEmpty, line.first != UInt8(ascii: "#") else { continue }
            guard !line.contains(0x0D) else {
                lines.append(
                    ReadLine(
                        number: number,
                        line: .failure(
                            JourneyLine.Malformed(
                                message:
                                    "a carriage return inside the line: the file's lines end with CR alone; save it with LF (or CR LF) line ends"
                            ))))
                continue
            }
            guard line.count <= LineLimit.maximumBytes else {
                lines.append(
                    ReadLine(
                        number: number,
                        line: .failure(
                            JourneyLine.Malformed(message: "the line is longer than 1 MiB; one object per line"))))
                continue
            }
            do {
                lines.append(ReadLine(number: number, line: .success(try JourneyLine.read(line))))
            } catch {
                lines.append(ReadLine(number: number, line: .failure(error)))
            }
        }
        return lines
    }

    /// Runs `journey` (the bytes of a JSON-lines file) through `schema`.
    public init(schema: Schema, journey: [UInt8]) {
        self.init(schema: schema, lines: Self.read(journey))
    }

    /// Runs journey lines already read through `schema`, in order (`SyntheticPostbacks` runs a subset of one
    /// journey's lines for each user, read once).
    package init(schema: Schema, lines: some Sequence<ReadLine>) {
        self.schema = schema
        var activity = RunningActivity(schema: schema)
        var lastHour = 0.0
        var sentByWindow = PerWindow<(fine: Int, coarse: CoarseValue?, lock: Bool)?>(repeating: nil)
        var lockedWindows = Set<ConversionWindow>()
        for readLine in lines {
            let number = readLine.number
            let read: JourneyLine
            switch readLine.line {
            case .success(let line): read = line
            case .failure(let error):
                diagnostics.append(.journeyLine(number, .journeyJSON, error.message))
                continue
            }
            guard read.hour >= lastHour else {
                diagnostics.append(
                    .journeyLine(
                        number, .journeyHour,
                        "hour \(ConditionNumber.text(read.hour)) is before hour \(ConditionNumber.text(lastHour)) of the line before; journey lines go forward in time"
                    ))
                continue
            }
            if let problem = apply(read, to: &activity) {
                diagnostics.append(.journeyLine(number, problem.code, problem.message))
                continue
            }
            lastHour = read.hour
            let evaluation = activity.evaluate(at: read.hour)
            var sent = false
            if let window = evaluation.window, evaluation.sends, !lockedWindows.contains(window) {
                let values = (evaluation.fineValue, evaluation.coarseValue, evaluation.lock)
                if let previous = sentByWindow[window], previous == values {
                    sent = false
                } else {
                    sent = true
                    sentByWindow[window] = values
                    if evaluation.lock { lockedWindows.insert(window) }
                }
            }
            steps.append(Step(line: number, hour: read.hour, evaluation: evaluation, sent: sent))
        }
    }

    /// Applies a read line to `activity`, or says why it cannot be (and then changes nothing).
    private func apply(_ line: JourneyLine, to activity: inout RunningActivity) -> (
        code: DiagnosticCode, message: String
    )? {
        var logged: LoggedEvent?
        var codes: [(field: Int, code: Int)] = []
        if let name = line.event {
            guard let index = schema.eventIndex(named: name) else {
                let known = schema.events.map(\.name)
                return (
                    .journeyEvent,
                    "no event named '\(TerminalText.visible(name))' in schema \(schema.name)"
                        + (known.isEmpty ? " (it declares none)" : "; its events are \(known.joined(separator: ", "))")
                )
            }
            let event = schema.events[index]
            switch (event.hasValue, line.value) {
            case (true, nil):
                return (
                    .journeyValue, "'\(name)' is a value event (\(event.currency!)); give its amount: \"value\": 4.99"
                )
            case (false, _?):
                return (.journeyValue, "'\(name)' is counted, not a value event; remove \"value\"")
            case (true, let amount?) where amount < 0:
                return (.journeyValue, "'\(name)' has a negative amount; log refunds as the app does, not as events")
            default:
                logged = LoggedEvent(event: index, hour: line.hour, amount: line.value)
            }
        } else if line.value != nil {
            return (.journeyValue, "\"value\" without \"event\"; a value belongs to a value event")
        }
        for (fieldName, caseName) in line.set {
            guard let index = schema.fieldIndex(named: fieldName) else {
                return (.journeySet, "no flag or field named '\(TerminalText.visible(fieldName))' to set")
            }
            let field = schema.fields[index]
            guard field.derivation == nil else {
                return (.journeySet, "'\(fieldName)' is derived from events and time; the app does not set it")
            }
            guard let fieldCase = field.caseNamed(caseName) else {
                return (
                    .journeySet,
                    "'\(fieldName)' has no case '\(TerminalText.visible(caseName))'; its cases are \(field.cases.map(\.name).joined(separator: ", "))"
                )
            }
            codes.append((index, fieldCase.code))
        }
        if let logged { activity.log(logged) }
        for (field, code) in codes { activity.set(field: field, code: code) }
        return nil
    }

    /// `--format jsonl`: one object per step.
    public var jsonLines: String {
        steps.map { step in
            let evaluation = step.evaluation
            let state = zip(schema.fields, evaluation.state.codes).map { field, code in
                "\(JSONString.quoted(field.name)):\(JSONString.quoted(field.caseWithCode(code)?.name ?? String(code)))"
            }
            return "{\"line\":\(step.line),\"hour\":\(ConditionNumber.text(step.hour)),\"window\":"
                + (evaluation.window.map { String($0.number) } ?? "null") + ",\"fine_value\":\(evaluation.fineValue)"
                + ",\"coarse_value\":" + (evaluation.coarseValue.map { JSONString.quoted($0.rawValue) } ?? "null")
                + ",\"sends\":\(evaluation.sends)"
                + ",\"lock\":\(evaluation.lock),\"sent\":\(step.sent),\"state\":{" + state.joined(separator: ",")
                + "}}\n"
        }.joined()
    }

    /// The default format: a table, one row per step.
    public var text: String {
        var out = "line  hour     window  fine  coarse  lock   sent   state\n"
        for step in steps {
            let evaluation = step.evaluation
            let state = zip(schema.fields, evaluation.state.codes).map { field, code in
                "\(field.name)=\(field.caseWithCode(code)?.name ?? String(code))"
            }.joined(separator: " ")
            out +=
                pad(String(step.line), 6) + pad(ConditionNumber.text(step.hour), 9)
                + pad(evaluation.window.map { String($0.number) } ?? "-", 8) + pad(String(evaluation.fineValue), 6)
                + pad(coarseText(evaluation), 8) + pad(String(evaluation.lock), 7)
                + pad(step.sent ? "sent" : "-", 7) + state + "\n"
        }
        return out
    }

    /// The coarse value, `nothing` where the state sends no update, `-` after the last window.
    private func coarseText(_ evaluation: ActivityEvaluation) -> String {
        evaluation.coarseValue?.rawValue ?? (evaluation.window == nil ? "-" : CoarseRule.nothing)
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(width - text.count, 1))
    }
}

extension DiagnosticCode {
    /// A journey line that is not a JSON object of hour, event, value and set.
    public static let journeyJSON = DiagnosticCode("journey-json")
    /// A journey line whose hour is before the previous line's.
    public static let journeyHour = DiagnosticCode("journey-hour")
    /// A journey line that logs an event the schema does not declare.
    public static let journeyEvent = DiagnosticCode("journey-event")
    /// A value on a counted event, or none on a value event.
    public static let journeyValue = DiagnosticCode("journey-value")
    /// A journey line that sets a field the app does not set, or a case it does not have.
    public static let journeySet = DiagnosticCode("journey-set")
}

extension Diagnostic {
    fileprivate static func journeyLine(_ line: Int, _ code: DiagnosticCode, _ message: String) -> Diagnostic {
        .error(code, message, at: .line(line))
    }
}
