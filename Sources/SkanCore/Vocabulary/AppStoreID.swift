/// An app's App Store ID (`id1234567890` in a store link): the one rule every command and artifact checks it by.
public enum AppStoreID {
    /// Whether `text` can be an App Store ID: digits only, one to nineteen of them (an int64, as Apple's and
    /// Google Ads' IDs are).
    public static func isValid(_ text: some StringProtocol) -> Bool {
        (1...19).contains(text.utf8.count) && text.utf8.allSatisfy { (0x30...0x39).contains($0) }
    }
}
