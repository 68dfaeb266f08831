import Foundation
import SkanCommandLine
import SkanCore
import SkanPostbacks
import SkanSchema
import SkanSchemaArtifact
import SkanSchemaTools

/// `skanc simulate SCHEMA JOURNEY --postbacks --schedule FILE [--days N]`: postbacks while the schema changes
/// over the air, each truth with the version that set its values.
extension SimulateCommand {
    static let schedule = CommandOption.text(
        "--schedule", placeholder: "FILE",
        help: "Change the schema over the air while users install: the steps of 'skanc publish', day by day "
            + "(below); SCHEMA is the one the app bundles. With --postbacks and one JOURNEY.")
    static let days = IntegerOption(
        "--days", placeholder: "N", range: 1...365,
        help: "With --schedule: spread installs over N days, 1 to 365 (default: two days past the last step).")

    static func runSchedule(_ schedulePath: String, _ arguments: ParsedArguments, _ context: CommandContext)
        throws(UsageError) -> ExitStatus
    {
        guard arguments.positionals.count == 2, arguments.has(postbacks) else {
            throw UsageError(
                message: "--schedule writes postbacks: skanc simulate SCHEMA JOURNEY --postbacks --schedule FILE")
        }
        let (bundledPath, journeyPath) = (arguments.positionals[0], arguments.positionals[1])
        try context.refuseOutput(
            arguments[truth],
            over: [
                (bundledPath, "the schema itself"), (journeyPath, "the journey it reads"),
                (schedulePath, "the schedule it reads"),
            ],
            what: "the truth")
        guard let bundled = SchemaInput.compileAndReport(bundledPath, context).schema,
            let journey = context.read(journeyPath, what: "the journey", limit: .journey),
            let scheduleBytes = context.read(schedulePath, what: "the schedule", limit: .mix)
        else { return .failure }
        let (schedule, problems) = PublishSchedule.read(scheduleBytes)
        guard context.diagnostics(problems, path: schedulePath) == .success else { return .failure }
        // Every version the schedule publishes, read as `skanc publish` reads it; the journey must suit each.
        let folder = URL(fileURLWithPath: schedulePath).deletingLastPathComponent()
        var schemas: [String: (schema: Schema, versionAt: SourceLocation)] = [:]
        var status = context.diagnostics(
            JourneySimulation(schema: bundled, journey: journey).diagnostics, path: journeyPath)
        for file in schedule.files {
            let path = file.hasPrefix("/") ? file : folder.appendingPathComponent(file).path
            guard let (schema, versionAt) = SchemaInput.compileWithVersion(path, context) else { return .failure }
            schemas[file] = (schema, versionAt)
            if context.diagnostics(JourneySimulation(schema: schema, journey: journey).diagnostics, path: journeyPath)
                != .success
            {
                status = .failure
            }
        }
        guard status == .success else { return status }
        guard let options = try postbackOptions(arguments, context) else { return .failure }
        let (timeline, refused) = schedule.timeline(appID: String(options.appID), schemas: schemas)
        if let (step, diagnostics) = refused {
            context.error("skanc simulate: \(schedulePath):\(step.line): 'skanc publish' refuses this step:")
            var path = schedulePath
            if case .publish(let file, _) = step.action {
                path = file.hasPrefix("/") ? file : folder.appendingPathComponent(file).path
            }
            _ = context.diagnostics(diagnostics, path: path)
            return .failure
        }
        let lastDay = schedule.steps.last?.day ?? 0
        var spread = lastDay + 2
        if let number = arguments[days] { spread = Double(number) }
        announceKey(options, frameworks: [options.framework], context)
        return stream(schema: bundled, arguments: arguments, context) { emit in
            SyntheticPostbacks.generate(
                journey: journey, days: spread, options: options,
                schema: { hour, installID in
                    timeline.schema(at: Int((hour * 3600).rounded(.down)), installID: installID, bundled: bundled)
                }, emit: emit)
        }
    }
}
