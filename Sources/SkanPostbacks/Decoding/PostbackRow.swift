import SkanCore

/// What one line says, checked: the status, and the values of the output columns as spans of the line
/// (or of the decoded JWS payload), ready for a row writer. Holds no heap memory of its own.
struct PostbackRow {
    enum Framework: UInt8 {
        case skadnetwork, adattributionkit
        var name: StaticString { self == .skadnetwork ? "skadnetwork" : "adattributionkit" }
    }
    /// How the user met the ad: `fidelity-type` 0 / 1, or `ad-interaction-type`.
    enum Interaction: UInt8 {
        case view, click
        var name: StaticString { self == .view ? "view" : "click" }
    }
    /// `redownload` false / true, or AdAttributionKit's `conversion-type`.
    enum ConversionType: UInt8 {
        case download, redownload, reengagement
        var name: StaticString {
            switch self {
            case .download: "download"
            case .redownload: "redownload"
            case .reengagement: "re-engagement"
            }
        }
    }
    /// `source-app-id` and `publisher-item-identifier` name an app; `source-domain` a web page.
    enum PublisherKind: UInt8 { case app, web }

    /// A cell: a JSON value's span and where it lives, or nothing.
    typealias Cell = PostbackFields.Value?

    var status: PostbackStatus = .ok
    /// The signature's outcome; nil when signatures are not verified (or the line is no postback).
    var signature: SignatureOutcome? = nil
    var framework: Framework? = nil
    /// The SKAdNetwork version the line was checked as (1.0 when it has no `version`); nil otherwise.
    var version: PostbackRules.SKAdNetworkVersion? = nil
    /// The `version` as sent, shown when it names no version.
    var versionCell: Cell = nil
    var transactionID: Cell = nil
    var adNetworkID: Cell = nil
    /// The `source-identifier` string as sent, and its digit count when it is two to four digits (else 0).
    var sourceIdentifier: Cell = nil
    var sourceDigits = 0
    /// SKAdNetwork 1.0-3.0's `campaign-id`.
    var campaignID: Cell = nil
    var appID: Cell = nil
    var publisher: Cell = nil
    var publisherKind: PublisherKind? = nil
    var marketplace: Cell = nil
    var sequenceIndex: Cell = nil
    var didWin: Cell = nil
    var interaction: Interaction? = nil
    var conversionType: ConversionType? = nil
    /// The privacy tier the fields imply (0...3), or -1 when they do not tell.
    var tier: Int8 = -1
    var countryCode: Cell = nil
    /// The fine value when it is a whole number in 0...63.
    var fineValue: Int? = nil
    /// The `conversion-value` as sent, for a row whose value is out of range or mistyped.
    var fineCell: Cell = nil
    /// The coarse value when it is low, medium or high.
    var coarseValue: CoarseValue? = nil
    var coarseCell: Cell = nil
    /// Whether the postback has a `conversion-value` or `coarse-conversion-value` key at all, whatever its
    /// value: a mistyped value is still a value.
    var carriesValue = false
    /// The window the postback reports on: postback-sequence-index + 1 (1 when absent).
    var window: Int = 1
    /// Whether `fineValue` is a state of the schema; its field columns are filled only then.
    var fineIsValid = false
    /// The app's index in the run's `SchemaCatalog` (0 when postbacks are not routed by app), or -1 for an app it
    /// does not hold.
    var app = 0

    /// Records `problem` unless one that comes first in `PostbackStatus`'s order of precedence is already
    /// recorded: the status is the first problem in that order, whichever check finds it first, so it is
    /// defined by the rules alone (and the warehouse SQL can state it as one CASE).
    @inline(__always)
    mutating func flag(_ problem: PostbackStatus) {
        if status == .ok || problem.index < status.index { status = problem }
    }
}
