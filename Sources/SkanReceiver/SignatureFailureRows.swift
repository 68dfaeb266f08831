import SkanCore
import SkanPostbacks

/// The counter's rows (CSV, as `skanc postbacks` writes them), read for the stored postbacks whose signature
/// failed: each counts against its ad network and app's quota (`UnverifiedQuota`). Used on the counting thread
/// only.
final class SignatureFailureRows: PostbackOutput {
    private(set) var quota: UnverifiedQuota
    private let allowsDevelopment: Bool
    /// Whether the rows being read are this run's intake (the store held at start is read too, and is not).
    var countsAgainstQuota = true
    /// The header's positions of the columns read, from the first row.
    private var columns: (signature: Int, adNetwork: Int, app: Int)?

    init(_ settings: UnverifiedQuota.Settings, allowsDevelopment: Bool) {
        quota = UnverifiedQuota(settings)
        self.allowsDevelopment = allowsDevelopment
    }

    func write<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
        let now = Clock.epochSeconds()
        for row in Array(bytes).split(separator: 10) {
            let fields = Self.fields(row.last == 13 ? row.dropLast() : row)
            guard let columns else {
                if let signature = fields.firstIndex(of: "signature"),
                    let adNetwork = fields.firstIndex(of: "ad_network_id"), let app = fields.firstIndex(of: "app_id")
                {
                    self.columns = (signature, adNetwork, app)
                }
                continue
            }
            guard countsAgainstQuota, fields.count > max(columns.signature, columns.adNetwork, columns.app) else {
                continue
            }
            let signature = fields[columns.signature]
            guard signature != SignatureOutcome.verified.rawValue,
                !(allowsDevelopment && signature == SignatureOutcome.development.rawValue)
            else { continue }
            let key = UnverifiedQuota.Key(adNetwork: fields[columns.adNetwork], app: fields[columns.app])
            if quota.failed(key, now: now) {
                StandardError.write(
                    "skanc serve: warning: "
                        + (quota.gates.all
                            ? "more stored postbacks failed verification this hour than the total quota allows"
                            : "postbacks of ad network \(TerminalText.visible(key.adNetwork, oneLine: true)), app "
                                + "\(TerminalText.visible(key.app, oneLine: true)) failed verification past their quota this hour")
                        + "; such postbacks are verified before they are stored until the hour ends")
            }
        }
    }

    /// The fields of one CSV row (RFC 4180: quoted fields, doubled quotes).
    static func fields(_ row: ArraySlice<UInt8>) -> [String] {
        var fields: [String] = []
        var field: [UInt8] = []
        var quoted = false
        var index = row.startIndex
        while index < row.endIndex {
            let byte = row[index]
            if quoted {
                if byte == 34 {
                    if index + 1 < row.endIndex, row[index + 1] == 34 {
                        field.append(34)
                        index += 1
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(byte)
                }
            } else if byte == 34 {
                quoted = true
            } else if byte == 44 {
                fields.append(String(decoding: field, as: UTF8.self))
                field = []
            } else {
                field.append(byte)
            }
            index += 1
        }
        fields.append(String(decoding: field, as: UTF8.self))
        return fields
    }
}
