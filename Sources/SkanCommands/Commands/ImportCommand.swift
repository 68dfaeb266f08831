import Foundation
import SkanCommandLine
import SkanCompiler
import SkanCore
import SkanPlatforms
import SkanSchemaTools

/// `skanc import ga4|meta|google-ads FILE [-o SCHEMA.skan]`: a platform's configuration as a schema with events.
enum ImportCommand {
    static let output = OutputOption.named(writing: "the schema")
    static let name = CommandOption.text(
        "--name", placeholder: "NAME", help: "The schema's name (default: the file's name, as an identifier).")
    static let currency = CommandOption.text(
        "--currency", placeholder: "CODE", defaultValue: "USD",
        help: "ga4, google-ads: the currency of value events where the configuration does not say it.")

    static let command = Command(
        name: "import",
        summary: "Write a schema with events from an ad platform's configuration (GA4, Meta, Google Ads).",
        operands: "ga4|meta|google-ads FILE",
        options: [output, name, currency, ErrorFormatOption.option],
        discussion: """
            Reads FILE (- for standard input) and writes a schema with events that means what the platform
            computes; docs/Export.md says what maps to what.
              ga4    a GA4 Admin API SKAdNetworkConversionValueSchema in JSON (as 'skanc export --format ga4'
                     writes it, or as the API returns it), read strictly: a key the resource does not have, or a
                     value of the wrong type, is an error with its key path. The fine value of
                     postbackWindowOne's first conversion value whose event mappings hold, each window's coarse
                     value and lock from its own list (or the one it inherits where its settings are off), counts and
                     values since install. Exporting it again gives the same values in every window.
              meta   Meta's ios_skadnetwork_conversion_config as its SDK reads it ({"data": [CONFIG]}): the
                     highest conversion_value_rules entry whose events were all logged (with values: a sum over
                     the amount in one of its currencies), coarse_cv_configs per postback (counted from 1), high
                     first, lock_window_rules by time or events, and cutoff_time. What has no counterpart (the
                     SKAdNetwork 3 timer, keys the SDK does not read) is a warning.
              google-ads
                     a Google Ads API CustomerSkAdNetworkConversionValueSchema in JSON (as 'skanc export --format
                     google-ads' writes it), read strictly: the fine value and each postback's coarse value whose
                     mapping holds (whole hours since install, counts and revenue since install), nothing where
                     none does, and the lock triggers. Mappings that can hold together are a warning.
            """,
        exitStatus: "0 written, 1 the file cannot be read or is not the platform's configuration, 64 bad usage.",
        run: run
    )

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(UsageError) -> ExitStatus {
        guard arguments.positionals.count == 2 else {
            throw UsageError(
                message: "name the platform (ga4, meta or google-ads) and the file to import")
        }
        let platform = arguments.positionals[0]
        guard ["ga4", "meta", "google-ads"].contains(platform) else {
            throw UsageError(
                message: "'\(platform)' is not a platform skanc imports; it imports ga4, meta and google-ads")
        }
        let path = arguments.positionals[1]
        let currency = (arguments[currency] ?? "USD").uppercased()
        guard currency.count == 3, currency.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            throw UsageError(message: "--currency takes an ISO 4217 code of three letters, like EUR")
        }
        let schemaName = arguments[name] ?? identifier(from: path)
        guard GA4Import.isIdentifier(schemaName) else {
            throw UsageError(
                message: "--name takes an identifier: a letter, then letters, digits and '_'")
        }
        let shown = path == "-" ? "<stdin>" : path
        let style = ErrorFormatOption.style(arguments)
        try context.refuseOutput(
            arguments[output], over: [(path, "the configuration it imports")],
            what: "the schema")
        guard let bytes = context.read(path, what: "the configuration", limit: .configuration) else {
            return .failure
        }
        let imported: (schema: ImportedSchema, diagnostics: [Diagnostic])
        do {
            if platform == "ga4" {
                let result = GA4Import(try GA4Schema.read(bytes), name: schemaName, currency: currency, file: shown)
                imported = (result.imported, result.diagnostics)
            } else if platform == "google-ads" {
                let result = GoogleAdsImport(
                    try GoogleAdsSchema.read(bytes), name: schemaName, currency: currency, file: shown)
                imported = (result.imported, result.diagnostics)
            } else {
                let result = MetaImport(try MetaConfiguration.read(bytes), name: schemaName, file: shown)
                imported = (result.imported, result.diagnostics)
            }
        } catch {
            return context.diagnostics(error.diagnostics, path: shown, style: style)
        }
        guard context.diagnostics(imported.diagnostics, path: shown, style: style) == .success else { return .failure }
        // What a schema cannot hold is reported at the configuration's entry, before any layout.
        let compiled = imported.schema.compile()
        guard compiled.schema != nil else { return context.diagnostics(compiled.errors, path: shown, style: style) }
        let text = SchemaFormatter.format(imported.schema.text) ?? imported.schema.text
        return context.write(text, to: arguments[output])
    }

    /// `ga4-schema.json` → `Ga4Schema`: the file's name, letters and digits kept, words capitalized.
    static func identifier(from path: String) -> String {
        let base = path == "-" ? "Imported" : URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let words = base.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }
        let joined = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        guard let first = joined.first, first.isLetter else { return "Imported" + joined }
        return joined
    }
}
