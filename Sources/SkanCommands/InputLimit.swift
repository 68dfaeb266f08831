/// The most each kind of file read whole may hold: a file (or an endless pipe, or `/dev/zero`) past it is
/// refused with a located error after reading one byte more, never read to the end. Postbacks and attribution
/// records are streamed instead, their lines bounded one by one; schemas (1 MiB) and property lists (8 MiB) have
/// their own limits where they are read. Each limit keeps a refused run under 50 MB.
struct InputLimit {
    let bytes: Int

    /// A journey, or one journey of a mix: a few lines a user's activity, far below this.
    static let journey = InputLimit(bytes: 16 << 20)
    /// A mix (`simulate --mix`): a few lines a network.
    static let mix = InputLimit(bytes: 1 << 20)
    /// A GA4, Meta or Google Ads configuration: kilobytes.
    static let configuration = InputLimit(bytes: 4 << 20)
    /// A cost file, or the amounts `suggest buckets --from` reads: a row a day and campaign, a line an amount.
    static let table = InputLimit(bytes: 16 << 20)
    /// A PEM signing key: a few hundred bytes.
    static let key = InputLimit(bytes: 64 << 10)

    /// The limit in words: "16 MiB", "64 KiB".
    var text: String { bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : "\(bytes >> 10) KiB" }
}
