public import SkanCore
public import SkanSchema
public import SkanSchemaArtifact

/// What a team publishes over days, for `skanc simulate --schedule`: JSON lines in day order, each one step of
/// `skanc publish`:
///   {"day": 0, "publish": "v1.skan"}                 publish live
///   {"day": 3, "publish": "v2.skan", "rollout": 10}  publish to 10% of installs
///   {"day": 5, "rollout": 100}                       change the rollout's share (100: live, 0: stopped)
///   {"day": 6, "rollback": true}                     the previous live version live again
///   {"day": 8, "revoke": 2}                          take version 2 from devices
/// (blank lines and `#` comments skipped). Every step is planned by `Publication`, the gate `skanc publish`
/// runs, so a schedule that publishing would refuse is refused with the same diagnostics.
public struct PublishSchedule: Sendable {
    /// One step: when (days since the run's start) and what.
    public struct Step: Sendable {
        /// Days since the run's start.
        public var day: Double
        /// The step's line in the file, 1-based.
        public var line: Int
        /// What it publishes or changes.
        public var action: Action
    }

    /// A step's change, as `skanc publish` takes it; a schema is named by its file (relative to the schedule's).
    public enum Action: Sendable, Equatable {
        /// `skanc publish SCHEMA [--rollout PERCENT]`.
        case publish(file: String, rollout: Int?)
        /// `skanc publish --rollout PERCENT`.
        case rollout(Int)
        /// `skanc publish --rollback`.
        case rollback
        /// `skanc publish --revoke VERSION`.
        case revoke(Int)
    }

    /// The steps, in day order.
    public var steps: [Step]

    /// The schema files the steps publish, each once, in the order first named.
    public var files: [String] {
        var files: [String] = []
        for case .publish(let file, _) in steps.map(\.action) where !files.contains(file) { files.append(file) }
        return files
    }

    /// The schedule of `bytes`, or a diagnostic at each line that is not a step (nothing is skipped silently).
    public static func read(_ bytes: [UInt8]) -> (schedule: PublishSchedule, diagnostics: [Diagnostic]) {
        var steps: [Step] = []
        var diagnostics: [Diagnostic] = []
        for (index, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let trimmed = line.drop { $0 == 0x20 || $0 == 0x09 }
            guard let first = trimmed.first, first != 0x23, !(trimmed.allSatisfy { $0 == 0x0D }) else { continue }
            do throws(Malformed) {
                let step = try Self.step(Array(line), line: number)
                if let last = steps.last, step.day < last.day {
                    throw Malformed(
                        message: "day \(ConditionNumber.text(step.day)) comes after day "
                            + "\(ConditionNumber.text(last.day)); write the steps in day order")
                }
                steps.append(step)
            } catch {
                diagnostics.append(
                    .error(.scheduleInvalid, error.message, at: SourceLocation(line: number, column: 1, offset: 0)))
            }
        }
        if diagnostics.isEmpty, steps.isEmpty {
            diagnostics.append(.error(.scheduleInvalid, "the schedule has no step: publish a schema on day 0", at: nil))
        }
        return (PublishSchedule(steps: steps), diagnostics)
    }

    struct Malformed: Error {
        var message: String
    }

    private static func step(_ bytes: [UInt8], line: Int) throws(Malformed) -> Step {
        var reader = JSONReader(bytes: bytes, maximumDepth: 2, tooDeep: "a step is one flat JSON object")
        let document: JSONDocument
        do {
            document = try reader.document()
        } catch {
            throw Malformed(message: "not a JSON object: \(error.message)")
        }
        guard case .object(let members) = document else { throw Malformed(message: "a step is one JSON object") }
        let known = ["day", "publish", "rollout", "rollback", "revoke"]
        if let unknown = members.first(where: { !known.contains($0.0) }) {
            throw Malformed(message: "unknown key '\(unknown.0)': a step has \(known.joined(separator: ", "))")
        }
        guard case .number(let day)? = document["day"], day >= 0 else {
            throw Malformed(message: "\"day\" is missing or not a number of days from 0")
        }
        func whole(_ key: String, _ range: ClosedRange<Int>) throws(Malformed) -> Int? {
            guard let value = document[key] else { return nil }
            guard case .number(let number) = value, number == number.rounded(), let whole = Int(exactly: number),
                range.contains(whole)
            else {
                throw Malformed(message: "\"\(key)\" takes a whole number, \(range.lowerBound) to \(range.upperBound)")
            }
            return whole
        }
        let rollout = try whole("rollout", 0...100)
        let revoke = try whole("revoke", 0...Int(Int32.max))
        let action: Action
        switch (document["publish"], rollout, document["rollback"], revoke) {
        case (.string(let file)?, _, nil, nil) where !file.isEmpty: action = .publish(file: file, rollout: rollout)
        case (nil, let percent?, nil, nil): action = .rollout(percent)
        case (nil, nil, .bool(true)?, nil): action = .rollback
        case (nil, nil, nil, let version?): action = .revoke(version)
        default:
            throw Malformed(
                message: "a step does one thing: \"publish\": \"FILE.skan\" (with \"rollout\": PERCENT or not), "
                    + "\"rollout\": PERCENT, \"rollback\": true or \"revoke\": VERSION")
        }
        return Step(day: day, line: line, action: action)
    }

    /// The manifests in force over the run, each from its step's second, every step planned by `Publication`
    /// as `skanc publish` plans it (`schemas`: each file's schema and where its version is written). A step the
    /// gate refuses ends it: `refused` holds that step and the gate's diagnostics (located in the step's schema
    /// file when it publishes one).
    public func timeline(appID: String, schemas: [String: (schema: Schema, versionAt: SourceLocation)])
        -> (timeline: PublishTimeline, refused: (step: Step, diagnostics: [Diagnostic])?)
    {
        var manifest = SchemaManifest(appID: appID)
        var published: [Int: Schema] = [:]
        var timeline = PublishTimeline()
        for step in steps {
            let now = Int(step.day * 86_400)
            let action: Publication.Action
            var versions = published
            switch step.action {
            case .publish(let file, let rollout):
                guard let (schema, versionAt) = schemas[file] else {
                    return (timeline, (step, [.error(.scheduleInvalid, "no schema was read for '\(file)'", at: nil)]))
                }
                action = .publish(schema, versionAt: versionAt, rollout: rollout)
                versions[schema.version] = schema
            case .rollout(let percent): action = .rollout(percent)
            case .rollback: action = .rollback
            case .revoke(let version): action = .revoke(version)
            }
            let plan = Publication.plan(action, manifest: manifest, schemas: published, now: now)
            guard !plan.diagnostics.hasErrors else { return (timeline, (step, plan.diagnostics)) }
            published = versions
            if let next = plan.manifest {
                manifest = next
                timeline.append(from: now, manifest: next, schemas: published)
            }
        }
        return (timeline, nil)
    }
}

extension DiagnosticCode {
    /// `skanc simulate --schedule`: a line that is not a step, or steps out of day order.
    public static let scheduleInvalid = DiagnosticCode("schedule-invalid")
}
