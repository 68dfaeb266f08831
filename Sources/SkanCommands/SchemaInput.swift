import Foundation
import SkanCommandLine
import SkanCompiler
import SkanCore
import SkanFiles
import SkanPostbacks
import SkanSchema

/// Reads schemas named on the command line: a path, or `-` for standard input.
enum SchemaInput {
    /// The schema at `path` (or standard input for `-`); one byte past the compiler's limit is enough for it
    /// to say the schema is too large.
    static func read(_ path: String, _ context: CommandContext) -> Result<SourceText, InputFileError> {
        do {
            let file = try context.open(path, expecting: "a .skan file")
            return .success(
                SourceText(
                    path: file.displayName, bytes: try file.contents(limit: SchemaCompiler.maximumSourceBytes + 1)))
        } catch {
            return .failure(error)
        }
    }

    /// `--schemas DIR/APP_ID`: every version `skanc publish` published into the folder, in place of the SCHEMA
    /// operand (postbacks, report, sql); `DIR` too, for many apps.
    static let schemas = CommandOption.text(
        "--schemas", placeholder: "DIR/APP_ID",
        help: "Decode with every version 'skanc publish' published for the app (the folder it wrote), in place "
            + "of SCHEMA. DIR itself, for many apps: each postback is decoded by its own app's versions (report: "
            + "each app's report).")

    /// The App Store IDs of the apps `skanc publish --to folder` published for (subfolders named by digits that
    /// hold a manifest), in increasing order; empty when `folder` is one app's own folder or holds none.
    static func publishedApps(in folder: String) -> [String] {
        guard !FileManager.default.fileExists(atPath: folder + "/manifest.jws"),
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder)
        else { return [] }
        return names.filter { name in
            !name.isEmpty && name.utf8.allSatisfy { (0x30...0x39).contains($0) } && UInt64(name) != nil
                && FileManager.default.fileExists(atPath: folder + "/" + name + "/manifest.jws")
        }.sorted { UInt64($0)! < UInt64($1)! }
    }

    /// Whether `argument` names a folder of several apps' published schemas (`--schemas DIR`).
    static func holdsManyApps(_ argument: String) -> Bool {
        let trimmed = argument.hasSuffix("/") && argument.count > 1 ? String(argument.dropLast()) : argument
        return !publishedApps(in: trimmed).isEmpty
    }

    /// The schemas `postbacks` decodes with: `--schemas DIR` of many apps (each postback routed by its app ID),
    /// else what `compileVersions` reads. Nil, the problem printed, when one cannot be read.
    static func compileCatalog(_ argument: String, _ context: CommandContext) throws(UsageError)
        -> SchemaCatalog?
    {
        let trimmed = argument.hasSuffix("/") && argument.count > 1 ? String(argument.dropLast()) : argument
        let apps = publishedApps(in: trimmed)
        guard !apps.isEmpty else {
            return try compileVersions(argument, context).map(SchemaCatalog.init)
        }
        var catalog: [UInt64: LiveVersions] = [:]
        for app in apps {
            guard let versions = publishedVersions(trimmed + "/" + app, context) else { return nil }
            catalog[UInt64(app)!] = versions
        }
        return SchemaCatalog(apps: catalog)
    }

    /// The schemas a command decodes with: `--schemas DIR/APP_ID`, or else the first operand (`what` says what
    /// for, in the error when there is neither).
    static func operand(_ arguments: ParsedArguments, _ what: String) throws(UsageError) -> String {
        if let folder = arguments[schemas] { return folder }
        guard let path = arguments.positionals.first else {
            throw UsageError(message: "name the schema \(what), or --schemas DIR/APP_ID")
        }
        return path
    }

    /// The one schema the command reads (`purpose`: "to export"); bad usage for none or several.
    static func single(_ arguments: ParsedArguments, _ purpose: String) throws(UsageError) -> String {
        guard arguments.positionals.count == 1, let path = arguments.positionals.first else {
            throw UsageError(
                message: arguments.positionals.isEmpty
                    ? "name the schema \(purpose)" : "\(arguments.command) takes one schema at a time")
        }
        return path
    }

    /// Compiles `SCHEMA[,SCHEMA...]` (versions live together) and prints their diagnostics; nil when any
    /// has errors or cannot be read.
    /// An empty name (`,`, `a.skan,`) is bad usage.
    static func compileVersions(_ argument: String, _ context: CommandContext) throws(UsageError)
        -> LiveVersions?
    {
        // A folder `skanc publish` wrote: every version published in it.
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: argument, isDirectory: &isFolder), isFolder.boolValue {
            let trimmed = argument.hasSuffix("/") && argument.count > 1 ? String(argument.dropLast()) : argument
            let apps = publishedApps(in: trimmed)
            guard apps.isEmpty else {
                throw UsageError(
                    message: "'\(argument)' holds the schemas of \(apps.count) app\(apps.count == 1 ? "" : "s") ("
                        + apps.prefix(3).joined(separator: ", ") + (apps.count > 3 ? ", ..." : "")
                        + "); name one app's folder, '\(trimmed)/\(apps[0])'"
                        + " (skanc postbacks and skanc sql decode many apps' postbacks at once)")
            }
            return publishedVersions(argument, context)
        }
        // A file whose name has a comma is that file, not two schemas.
        var isDirectory: ObjCBool = false
        let whole =
            argument.contains(",") && FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory)
            && !isDirectory.boolValue
        let paths = whole ? [Substring(argument)] : argument.split(separator: ",", omittingEmptySubsequences: false)
        guard !paths.contains(where: \.isEmpty) else {
            throw UsageError(
                message: "'\(argument)' names no schema between its commas; write SCHEMA or V3.skan,V4.skan")
        }
        var live: [(name: String, schema: Schema, versionAt: SourceLocation)] = []
        let compiled = paths.map { path in
            compileAndReport(String(path), context) { schema, compiled in
                if let version = compiled.versionLocation { live.append((String(path), schema, version)) }
                return []
            }.schema
        }
        let schemas = compiled.compactMap { $0 }
        guard !schemas.isEmpty, schemas.count == compiled.count else { return nil }
        // One version named twice (`G.skan,G.skan`) would make every row of it ambiguous: refused, as
        // `check --live-together` refuses it.
        let repeated = LiveVersions.diagnostics(of: live, sharedValues: false)
        for (path, diagnostic) in repeated {
            context.diagnostics([diagnostic], path: path, source: try? read(path, context).get())
        }
        return repeated.isEmpty ? LiveVersions(schemas) : nil
    }

    /// Every version published in `folder` (`DIR/APP_ID`, as `skanc publish --to DIR` wrote it), read from the
    /// artifacts its manifest names (each checked against its name); nil, the problem printed, when one is missing
    /// or changed, or nothing is published.
    static func publishedVersions(_ folder: String, _ context: CommandContext) -> LiveVersions? {
        let trimmed = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        let appID = String(trimmed.split(separator: "/").last ?? "")
        let root = String(trimmed.dropLast(appID.count + 1))
        let published = PublishedFolder(root: root.isEmpty ? "." : root, appID: appID)
        guard FileManager.default.fileExists(atPath: published.manifestPath) else {
            context.diagnostics(
                [
                    .error(
                        .manifestInvalid,
                        "no manifest.jws: name the folder 'skanc publish --to DIR' wrote for the "
                            + "app (DIR/APP_ID)", at: nil)
                ], path: folder)
            return nil
        }
        guard let read = published.read(publicKey: nil, context) else { return nil }
        guard !read.schemas.isEmpty else {
            context.diagnostics([.error(.manifestInvalid, "no version is published here", at: nil)], path: folder)
            return nil
        }
        return LiveVersions(read.schemas.keys.sorted().map { read.schemas[$0]! })
    }

    /// Compiles one schema, printing its diagnostics; the schema and where its version number is, unless it has
    /// errors.
    static func compileWithVersion(_ path: String, _ context: CommandContext) -> (
        schema: Schema, versionAt: SourceLocation
    )? {
        var located: (Schema, SourceLocation)?
        let outcome = compileAndReport(path, context) { schema, compiled in
            located = compiled.versionLocation.map { (schema, $0) }
            return []
        }
        return outcome.failed ? nil : located
    }

    /// Compiles one schema and prints its diagnostics to standard error, with those `more` finds in a schema
    /// without errors (given the schema and its compilation, which says where the version and amounts are).
    /// `style` is the form they print in (`--error-format`).
    static func compileAndReport(
        _ path: String, warningsAsErrors: Bool = false, style: DiagnosticFormatter.Style = .text,
        _ context: CommandContext, more: (Schema, SchemaCompiler.Result) -> [Diagnostic] = { _, _ in [] }
    ) -> (schema: Schema?, failed: Bool) {
        let source: SourceText
        switch read(path, context) {
        case .success(let text): source = text
        case .failure(let error):
            context.diagnostics([error.diagnostic], path: error.displayName, style: style)
            return (nil, true)
        }
        var result = SchemaCompiler.compile(source)
        if let schema = result.schema {
            result.diagnostics = (result.diagnostics + more(schema, result)).sortedByLocation()
        }
        if warningsAsErrors {
            for index in result.diagnostics.indices where result.diagnostics[index].severity == .warning {
                result.diagnostics[index].severity = .error
            }
        }
        context.diagnostics(result.diagnostics, path: source.path, source: source, style: style)
        let failed = result.diagnostics.hasErrors
        return (failed ? nil : result.schema, failed)
    }
}
