import Foundation
import SkanCommandLine
import SkanCore
import SkanPlatforms

/// `skanc export SCHEMA --format ga4|google-ads|app-reporting-pack|branch [-o FILE]`: the schema for an ad platform,
/// exactly or not at all.
enum ExportCommand {
    static let format = ChoiceOption<SchemaExport.Format>(
        "--format", placeholder: "FORMAT",
        refusing: SchemaExport.Format.unwritten, help: "ga4, google-ads, app-reporting-pack or branch (required).")
    static let output = OutputOption.named(writing: "the export")
    static let appID = CommandOption.text(
        "--app-id", placeholder: "ID",
        help: "The App Store ID: Google Ads' schema.appId, the App Reporting Pack's app_id, Branch's app-id.")
    static let displayNames = CommandOption.flag(
        "--display-names",
        help:
            "Name each GA4 conversion value from its cases' descriptions (cut to GA4's 50 characters, with a warning).")
    static let applyConversionValues = CommandOption.flag(
        "--apply-conversion-values",
        help:
            "Set GA4's applyConversionValues: its SDK sets the values, and linked Google Ads accounts read the schema.")
    static let resourceName = CommandOption.text(
        "--resource-name", placeholder: "NAME",
        help:
            "Google Ads' resourceName, customers/C/customerSkAdNetworkConversionValueSchemas/L, which an update names.")
    static let updated = CommandOption.text(
        "--updated", placeholder: "TIME",
        help: "Branch's update time, 'yyyy-mm-dd hh:mm:ss.sss' in UTC (default: now).")
    static let allowLossy = CommandOption.flag(
        "--allow-lossy", help: "Write what the platform can say anyway, and list each loss as a warning.")

    static let command = Command(
        name: "export",
        summary:
            "Write a schema for an ad platform (GA4, Google Ads, the App Reporting Pack, Branch), exactly or not at all.",
        operands: "SCHEMA",
        options: [
            format, output, appID, resourceName, displayNames, applyConversionValues, updated, allowLossy,
            ErrorFormatOption.option,
        ],
        discussion: """
            Writes the schema in an ad platform's own terms, so that the platform computes, for the same events,
            the values the app sends:
              ga4                 the GA4 Admin API v1alpha SKAdNetworkConversionValueSchema, in JSON: per
                                  postback window a first-match list of conversion values, each with its fine
                                  value (window one), coarse value, one to three ANDed event mappings and lock.
              google-ads          the Google Ads API CustomerSkAdNetworkConversionValueSchema, in JSON: each fine
                                  value with one mapping (the whole hours since install the user was last
                                  active in, and its events' revenue and occurrence ranges), and per postback
                                  its low, medium and high mappings and lock trigger. Needs --app-id.
              app-reporting-pack  the rows of the App Reporting Pack's skan_schema table, as CSV: one row per fine
                                  value and event, with the bounds every way to that value keeps. Needs --app-id.
              branch              Branch's Conversion Value Mapping Partner API document, in JSON: per postback
                                  each fine and coarse value with the events it stands for (one event name, a
                                  whole-number revenue range, locked or not). Needs --app-id.
            Exact or refused: when the platform cannot say something of the schema (a time, an 'in window' count,
            a strict amount bound, a field the app sets, a sum over several events, more than the platform's
            limits), each problem is an error naming the fine values and windows it touches, and nothing is
            written. docs/Export.md explains each platform's model and what maps to what.
            """,
        exitStatus: """
            0 written, 1 the schema cannot be exported exactly (or has errors, or the file cannot be \
            written), 64 bad usage.
            """,
        run: run
    )

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(UsageError) -> ExitStatus {
        let path = try SchemaInput.single(arguments, "to export")
        guard let format = arguments[format] else {
            throw UsageError(
                message: "say which platform: --format ga4, google-ads, app-reporting-pack or branch")
        }
        if let appID = arguments[appID], !SchemaExport.Options.isAppStoreID(appID) {
            throw UsageError(
                message: "--app-id takes the app's App Store ID, digits only (1234567890 for id1234567890)")
        }
        if format == .googleAds, !arguments.has(appID) {
            throw UsageError(
                message: "--format google-ads needs --app-id: the app's App Store ID (schema.appId)")
        }
        if let name = arguments[resourceName] {
            guard format == .googleAds else {
                throw UsageError(
                    message: "--resource-name is Google Ads': use it with --format google-ads")
            }
            guard SchemaExport.Options.isGoogleAdsResourceName(name) else {
                throw UsageError(
                    message:
                        "--resource-name takes customers/CUSTOMER_ID/customerSkAdNetworkConversionValueSchemas/ACCOUNT_LINK_ID (digits), as a search of the resource returns it"
                )
            }
        }
        if format == .appReportingPack, !arguments.has(appID) {
            // The pack's decoder joins postbacks to the rows on the app id: rows without one match nothing.
            throw UsageError(
                message: "--format app-reporting-pack needs --app-id: the app's App Store ID, which the pack joins on")
        }
        if format == .branch, !arguments.has(appID) {
            throw UsageError(
                message: "--format branch needs --app-id: the app's App Store ID (Branch's app-id)")
        }
        if let time = arguments[updated] {
            guard format == .branch else {
                throw UsageError(message: "--updated is Branch's: use it with --format branch")
            }
            guard SchemaExport.Options.isBranchUpdateTime(time) else {
                throw UsageError(
                    message: "--updated takes Branch's form, yyyy-mm-dd hh:mm:ss.sss in UTC (2026-12-04 09:30:00.000)")
            }
        }
        try context.refuseOutput(
            arguments[output], over: [(path, "the schema itself")],
            what: "the export")
        let style = ErrorFormatOption.style(arguments)
        guard let schema = SchemaInput.compileAndReport(path, style: style, context).schema else { return .failure }
        let options = SchemaExport.Options(
            appID: arguments[appID], displayNames: arguments.has(displayNames),
            applyConversionValues: arguments.has(applyConversionValues), resourceName: arguments[resourceName],
            updated: arguments[updated]
                ?? SchemaExport.Options.branchUpdateTime(unixSeconds: Int(Date().timeIntervalSince1970)))
        let export = SchemaExport(schema: schema, format: format, options: options)
        let lossy = arguments.has(allowLossy)
        let status = context.diagnostics(
            export.diagnostics(lossy: lossy), path: path == "-" ? "<stdin>" : path, style: style)
        guard status == .success else { return status }
        return context.write(export.text, to: arguments[output])
    }
}
