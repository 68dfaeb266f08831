public import SkanSchema

/// The schemas a run decodes with: one app's versions for every postback (a SCHEMA operand, `--schemas
/// DIR/APP_ID`), or the versions of several apps, each postback routed by its app ID (`--schemas DIR`, the folder
/// `skanc publish --to` writes for many apps). A postback of an app the catalog does not hold is kept, with the
/// status `unknown-app`.
public struct SchemaCatalog: Sendable {
    /// One app: its App Store ID (nil: the one app of every postback) and its versions.
    public struct App: Sendable {
        /// The app's App Store ID; nil when postbacks are not routed.
        public let appID: UInt64?
        /// Its versions live together.
        public let versions: LiveVersions
    }

    /// The apps, in increasing App Store ID.
    public let apps: [App]
    /// Each app's index in `apps`, by App Store ID.
    private let indices: [UInt64: Int]

    /// Every postback decoded with `versions`, whatever its app.
    public init(_ versions: LiveVersions) {
        apps = [App(appID: nil, versions: versions)]
        indices = [:]
    }

    /// Each postback decoded with the versions of its app (`app-id`, or AdAttributionKit's
    /// `advertised-item-identifier`); at least one app.
    public init(apps: [UInt64: LiveVersions]) {
        precondition(!apps.isEmpty, "a catalog needs an app")
        self.apps = apps.keys.sorted().map { App(appID: $0, versions: apps[$0]!) }
        indices = Dictionary(uniqueKeysWithValues: self.apps.enumerated().map { ($1.appID!, $0) })
    }

    /// Whether postbacks are routed by their app ID.
    public var routesByApp: Bool { apps[0].appID != nil }

    /// The index in `apps` of the app `appID` (0 when postbacks are not routed); nil for an app it does not hold.
    func index(ofApp appID: UInt64?) -> Int? {
        guard routesByApp else { return 0 }
        return appID.flatMap { indices[$0] }
    }

    /// The fields of every app's versions as columns (snake_case names): each app's as `LiveVersions` orders
    /// them, apps in increasing ID; each name once (with whether it is a flag where it first appears).
    public var fieldColumns: [(name: String, isFlag: Bool)] {
        var columns: [(name: String, isFlag: Bool)] = []
        for app in apps {
            for column in app.versions.fieldColumns where !columns.contains(where: { $0.name == column.name }) {
                columns.append(column)
            }
        }
        return columns
    }

    /// Whether rows say which version decoded them: with several versions of one app, or with several apps.
    public var saysVersion: Bool { routesByApp || apps[0].versions.schemas.count > 1 }
}
