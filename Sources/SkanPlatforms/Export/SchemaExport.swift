public import SkanCore
public import SkanSchema

/// What `skanc export` writes: a schema for an ad platform, exactly, or the losses that stop it.
public struct SchemaExport: Sendable {
    /// The formats, by their names on the command line.
    public enum Format: String, CaseIterable, Sendable {
        case ga4
        case googleAds = "google-ads"
        case appReportingPack = "app-reporting-pack"
        case branch

        /// Formats people ask for that skanc does not write, with why and what to use instead: a file the
        /// platform would read in a way its documentation does not say would map values silently wrong.
        public static let unwritten: [String: String] = [
            "appsflyer-csv":
                "AppsFlyer publishes no column layout for its decode CSV (how coarse values, locks and revenue ranges are written, whether ranges include their ends), so skanc cannot write one it is sure AppsFlyer reads as meant; map the values in AppsFlyer's own editor, and give networks --format branch",
            "tenjin-csv":
                "Tenjin publishes no column layout for its conversion value template, so skanc cannot write one it is sure Tenjin reads as meant; fill Tenjin's template by hand from 'skanc table', and give networks --format branch",
        ]
    }

    /// What the schema does not say.
    public struct Options: Sendable {
        /// `--app-id`: the App Store ID the App Reporting Pack's rows carry.
        public var appID: String?
        /// `--display-names`.
        public var displayNames = false
        /// `--apply-conversion-values`.
        public var applyConversionValues = false
        /// `--resource-name`: the Google Ads resource an update operation names
        /// (`customers/{customer_id}/customerSkAdNetworkConversionValueSchemas/{account_link_id}`).
        public var resourceName: String?
        /// `--updated`: Branch's `update` time, `yyyy-mm-dd hh:mm:ss.sss` in UTC.
        public var updated: String?

        /// Branch's `update` form of Unix seconds: `2026-12-04 07:35:53.000`.
        public static func branchUpdateTime(unixSeconds: Int) -> String {
            BranchMappingExport.updateTime(unixSeconds: unixSeconds)
        }

        /// Whether `text` has Branch's `update` form, `yyyy-mm-dd hh:mm:ss.sss`.
        public static func isBranchUpdateTime(_ text: String) -> Bool {
            BranchMappingExport.isUpdateTime(text)
        }

        /// Whether `text` has the form of a `CustomerSkAdNetworkConversionValueSchema` resource name.
        public static func isGoogleAdsResourceName(_ text: String) -> Bool {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            return parts.count == 4 && parts[0] == "customers" && isDecimalID(parts[1])
                && parts[2] == "customerSkAdNetworkConversionValueSchemas" && isDecimalID(parts[3])
        }

        /// One to nineteen digits: an int64 ID as App Store and Google Ads IDs are.
        private static func isDecimalID(_ text: Substring) -> Bool { AppStoreID.isValid(text) }

        /// Whether `text` can be an App Store ID: digits only, one to nineteen of them (Apple's IDs are
        /// integers: `id1234567890` in a store link).
        public static func isAppStoreID(_ text: String) -> Bool {
            isDecimalID(Substring(text))
        }

        /// Nothing given.
        public init(
            appID: String? = nil, displayNames: Bool = false, applyConversionValues: Bool = false,
            resourceName: String? = nil, updated: String? = nil
        ) {
            self.appID = appID
            self.displayNames = displayNames
            self.applyConversionValues = applyConversionValues
            self.resourceName = resourceName
            self.updated = updated
        }
    }

    /// The export as the platform reads it (JSON or CSV), ending in a line break.
    public let text: String
    /// What could not be said exactly; an exact export has none.
    public let losses: [ExportLoss]
    /// Warnings that do not make it inexact (display names cut to the limit).
    public let warnings: [Diagnostic]
    /// The platform's name, for messages.
    public let platform: String
    /// The conjunctions built and compared (`ExportWork`): at most about `ExportWork.limit`, whatever the schema.
    package let workSpent: Int

    /// `schema` in `format`. A switch over every format: a new one does not compile until it is written here.
    public init(schema: Schema, format: Format, options: Options) {
        let work = ExportWork()
        switch format {
        case .googleAds:
            let export = GoogleAdsExport(
                schema: schema, appID: options.appID ?? "", resourceName: options.resourceName, work: work)
            (platform, text, losses, warnings) = ("Google Ads", export.json, export.losses, [])
        case .ga4:
            let ga4 = Self.ga4(schema, options, work)
            (platform, text, losses, warnings) = ("GA4", ga4.json, ga4.losses, Self.cutNameWarnings(ga4))
        case .appReportingPack:
            // The App Reporting Pack's rows are GA4's first-match list, one row per fine value.
            let ga4 = Self.ga4(schema, options, work)
            let rows = AppReportingPackRows(schema: schema, list: ga4.list, appID: options.appID ?? "")
            // The rows name events in full and carry no display names: GA4's cut names do not reach them.
            (platform, text, losses, warnings) = ("the App Reporting Pack", rows.csv, ga4.losses, [])
        case .branch:
            let export = BranchMappingExport(
                schema: schema, appID: options.appID ?? "0",
                updated: options.updated ?? BranchMappingExport.updateTime(unixSeconds: 0), work: work)
            (platform, text, losses, warnings) = ("Branch's partner mapping", export.json, export.losses, [])
        }
        workSpent = work.spent
    }

    private static func ga4(_ schema: Schema, _ options: Options, _ work: ExportWork) -> GA4Export {
        GA4Export(
            schema: schema,
            options: .init(displayNames: options.displayNames, applyConversionValues: options.applyConversionValues),
            work: work)
    }

    private static func cutNameWarnings(_ ga4: GA4Export) -> [Diagnostic] {
        ga4.cutNames.first.map { [.cutDisplayNames(count: ga4.cutNames.count, first: $0)] } ?? []
    }

    /// The losses as diagnostics: errors, or warnings with `lossy`.
    public func diagnostics(lossy: Bool) -> [Diagnostic] {
        losses.map { $0.diagnostic(platform: platform, lossy: lossy) } + warnings
    }
}

extension Diagnostic {
    fileprivate static func cutDisplayNames(count: Int, first name: String) -> Diagnostic {
        .warning(
            .exportLimit,
            (count == 1 ? "the display name '\(name)' is" : "\(count) display names, the first '\(name)', are")
                + " longer than GA4's \(GA4Export.maximumDisplayName) code units and were cut; shorten the cases' descriptions to keep them whole",
            at: nil)
    }
}
