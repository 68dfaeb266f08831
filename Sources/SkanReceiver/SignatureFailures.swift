import SkanCore
import SkanPostbacks

/// The stored postbacks whose signature failed, as the counter's reader decodes them: each counts against its
/// ad network and app's quota (`UnverifiedQuota`). The reader names them as the shape check on the loop does
/// (`PostbackSender`, escapes decoded), so the key the quota gates is the key the loop looks up, however a
/// forger spells an identifier. Used on the counting thread only (its reader decodes on the calling thread).
final class SignatureFailures: @unchecked Sendable {
    private(set) var quota: UnverifiedQuota
    private let allowsDevelopment: Bool
    /// Whether the postbacks being read are this run's intake (the store held at start is read too, and is not).
    var countsAgainstQuota = true

    init(_ settings: UnverifiedQuota.Settings, allowsDevelopment: Bool) {
        quota = UnverifiedQuota(settings)
        self.allowsDevelopment = allowsDevelopment
    }

    /// A decoded postback: counted when its signature failed.
    func observe(_ sender: PostbackSender) {
        guard countsAgainstQuota, let signature = sender.signature, signature != .verified,
            !(allowsDevelopment && signature == .development)
        else { return }
        let key = UnverifiedQuota.Key(adNetwork: sender.adNetwork, app: sender.app)
        guard quota.failed(key, now: Clock.epochSeconds()) else { return }
        StandardError.write(
            "skanc serve: warning: "
                + (quota.gates.all
                    ? "more stored postbacks failed verification this hour than the total quota allows"
                    : "postbacks of ad network \(TerminalText.visible(key.adNetwork, oneLine: true)), app "
                        + "\(TerminalText.visible(key.app, oneLine: true)) failed verification past their quota this hour")
                + "; such postbacks are verified before they are stored until the hour ends")
    }
}
