/// The longest line any reader of JSON lines accepts (postbacks, Apple Ads records): a longer one is reported
/// as too long and skipped, so that one huge line cannot hold the whole input in memory.
public enum LineLimit {
    /// 1 MiB: Apple's postbacks are under 2 KiB; attribution records are smaller still.
    public static let maximumBytes = 1 << 20
}
