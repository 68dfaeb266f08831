import Foundation

/// Postback lines for tests: valid ones of each kind, with members added or replaced. A JSON member given
/// again replaces the earlier one (the reader keeps a repeated key's last value), so `extra` can override.
enum PostbackLines {
    /// A fresh transaction id, so that lines are not duplicates of each other by accident.
    static func id() -> String { UUID().uuidString.lowercased() }

    /// The members a SKAdNetwork postback of `version` always carries ("1.0" for one without `version`).
    static func required(_ version: String, id: String) -> String {
        let common = #""ad-network-id":"net.example","app-id":525463029,"transaction-id":"\#(id)""#
        switch version {
        case "1.0": return common + #","campaign-id":42"#
        case "2.0", "2.1": return #""version":"\#(version)","# + common + #","campaign-id":42,"redownload":false"#
        case "2.2":
            return #""version":"2.2","# + common + #","campaign-id":42,"redownload":false,"fidelity-type":1"#
        case "3.0":
            return #""version":"3.0","# + common
                + #","campaign-id":42,"redownload":false,"fidelity-type":1,"did-win":true"#
        default:
            return #""version":"\#(version)","# + common
                + #","source-identifier":"1234","redownload":false,"fidelity-type":1,"did-win":true,"postback-sequence-index":0"#
        }
    }

    /// A valid SKAdNetwork postback of `version` with `extra` members (`"conversion-value":5`).
    static func skan(_ version: String = "4.0", _ extra: String = "", id: String = id()) -> String {
        "{" + required(version, id: id) + (extra.isEmpty ? "" : "," + extra) + "}"
    }

    /// A valid AdAttributionKit stanza: `payload` members replace or add to the signed payload's, `stanza`
    /// members to the stanza's. The signature is not a real one.
    static func aak(payload: String = "", stanza: String = #""conversion-value":5"#, id: String = id()) -> String {
        let members =
            #""postback-identifier":"\#(id)","ad-network-identifier":"net.example","source-identifier":"1234","#
            + #""advertised-item-identifier":525463029,"did-win":true,"postback-sequence-index":0,"#
            + #""conversion-type":"download","marketplace-identifier":"com.apple.AppStore","#
            + #""impression-type":"app-impression""# + (payload.isEmpty ? "" : "," + payload)
        let jws =
            base64URL(#"{"alg":"ES256","kid":"apple-cas-identifier/0"}"#) + "." + base64URL("{" + members + "}")
            + ".c2lnbmF0dXJl"
        return #"{"jws-string":"\#(jws)","ad-interaction-type":"click""# + (stanza.isEmpty ? "" : "," + stanza) + "}"
    }

    static func base64URL(_ text: String) -> String {
        Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
