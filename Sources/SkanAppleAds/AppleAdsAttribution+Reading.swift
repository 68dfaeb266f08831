public import Foundation
import SkanCore

extension AppleAdsAttribution {
    /// Why a JSON text is not an attribution record; `code` is the status `skanc attribution` shows.
    public struct ReadingError: Error, Equatable, Sendable {
        /// `not-json`, `not-object`, `unknown-format`, `missing-field`, `wrong-type`, `out-of-range` or
        /// `bad-date`.
        public var code: String
        /// The key at fault, when there is one.
        public var key: String?

        /// An error with `code`, about `key`.
        public init(code: String, key: String? = nil) {
            self.code = code
            self.key = key
        }
    }

    /// Reads an AdServices API answer or an iAd attribution dictionary (also wrapped in its version key,
    /// `{"Version3.1": {...}}`). iAd dictionaries were often exported with every value a string
    /// (`"iad-campaign-id": "1234"`, `"iad-attribution": "true"`): both forms are read.
    public init(json: Data) throws(ReadingError) {
        let value: JSONValue
        do {
            value = try StrictJSON.parse([UInt8](json))
        } catch {
            throw ReadingError(code: "not-json")
        }
        guard case .object(var object) = value else { throw ReadingError(code: "not-object") }
        if object.count == 1, let (key, inner) = object.first, key.hasPrefix("Version"),
            case .object(let wrapped) = inner
        {
            object = wrapped
        }
        if object["attribution"] != nil {
            self = try Self.adServices(object)
        } else if object.keys.contains(where: { $0.hasPrefix("iad-") }) {
            self = try Self.iAd(object)
        } else {
            throw ReadingError(code: "unknown-format")
        }
    }

    private static func adServices(_ object: [String: JSONValue]) throws(ReadingError) -> AppleAdsAttribution {
        let fields = Fields(object: object, lenient: false)
        return AppleAdsAttribution(
            source: .adServices, attributed: try fields.boolean("attribution"),
            organization: try fields.integer("orgId"),
            campaign: try fields.integer("campaignId"), adGroup: try fields.integer("adGroupId"),
            keyword: try fields.integer("keywordId"), ad: try fields.integer("adId"),
            clickDate: try fields.date("clickDate"),
            countryOrRegion: try fields.string("countryOrRegion"), conversionType: try fields.string("conversionType"),
            claimType: try fields.string("claimType"), impressionDate: try fields.date("impressionDate"),
            supplyPlacement: try fields.string("supplyPlacement"), creativeSet: try fields.integer("creativeSetId"))
    }

    private static func iAd(_ object: [String: JSONValue]) throws(ReadingError) -> AppleAdsAttribution {
        let fields = Fields(object: object, lenient: true)
        // iAd 3.1 answers name the ad group a line item and the ad a creative.
        let adGroup = try fields.integer("iad-adgroup-id")
        let lineItem = try fields.integer("iad-lineitem-id")
        let creativeSet = try fields.integer("iad-creativeset-id")
        let creative = try fields.integer("iad-creative-id")
        return AppleAdsAttribution(
            source: .iAd, attributed: try fields.boolean("iad-attribution"),
            organization: try fields.integer("iad-org-id"),
            campaign: try fields.integer("iad-campaign-id"), adGroup: adGroup ?? lineItem,
            keyword: try fields.integer("iad-keyword-id"), ad: creativeSet ?? creative,
            clickDate: try fields.date("iad-click-date"), countryOrRegion: try fields.string("iad-country-or-region"),
            conversionType: try fields.string("iad-conversion-type"))
    }

    /// Typed reads of an object's members; `lenient` also takes numbers and Booleans written as strings.
    private struct Fields {
        let object: [String: JSONValue]
        let lenient: Bool

        func boolean(_ key: String) throws(ReadingError) -> Bool {
            switch object[key] {
            case .bool(let value): return value
            case .string("true") where lenient: return true
            case .string("false") where lenient: return false
            case nil: throw ReadingError(code: "missing-field", key: key)
            default: throw ReadingError(code: "wrong-type", key: key)
            }
        }

        func integer(_ key: String) throws(ReadingError) -> Int? {
            switch object[key] {
            case nil, .null: return nil
            case .integer(let value): return value
            case .number(.tooLarge): throw ReadingError(code: "out-of-range", key: key)
            case .string(let text) where lenient && !text.isEmpty && text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }):
                guard let value = Int(text) else { throw ReadingError(code: "out-of-range", key: key) }
                return value
            default: throw ReadingError(code: "wrong-type", key: key)
            }
        }

        func string(_ key: String) throws(ReadingError) -> String? {
            switch object[key] {
            case nil, .null: return nil
            case .string(let value): return value
            default: throw ReadingError(code: "wrong-type", key: key)
            }
        }

        func date(_ key: String) throws(ReadingError) -> String? {
            guard let text = try string(key) else { return nil }
            guard let date = ISO8601Text.normalized(text) else { throw ReadingError(code: "bad-date", key: key) }
            return date
        }
    }
}

/// A JSON value with its type kept: a Boolean is never a number, nor a number a Boolean, and a number is an
/// integer only when it is exactly one (`StrictJSON`).
enum JSONValue: Equatable {
    case null
    case bool(Bool)
    case integer(Int)
    case number(StrictJSON.Inexact)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
}
