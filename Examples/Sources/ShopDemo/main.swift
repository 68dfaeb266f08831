import MainActorApp

// A user who registered, bought something under $5 and browsed on day one.
let state = Shop(registered: true, paymentTier: .low, dayOneAction: .browsed)
print(
    "Shop state: registered \(state.registered), paymentTier \(state.paymentTier), dayOneAction \(state.dayOneAction)")
print("fine value: \(state.fineValue)")
for window in Shop.Window.allCases {
    print("window \(window.number): coarse \(state.coarseValue(in: window)), lock \(state.shouldLock(in: window))")
}

// Decoding values back, as a postback analyst would.
for fineValue in [11, 20, 42] {
    do {
        let decoded = try Shop(fineValue: fineValue)
        print(
            "decoded \(fineValue): registered \(decoded.registered), paymentTier \(decoded.paymentTier), dayOneAction \(decoded.dayOneAction)"
        )
    } catch {
        print("decoded \(fineValue): not a Shop value: \(error)")
    }
}

var paywall = Paywall()
print(
    "subscription fine value after a $12.50 purchase: \(paywall.purchased(amount: 12.5)), coarse in window 1: \(paywall.coarseValueInFirstWindow)"
)
print(describeSubscription(fineValue: 7))

// Postbacks sent under the old layout are read with the old schema version.
if let legacy = try? LegacyShop(fineValue: 3) {
    print(
        "legacy value 3 (version \(LegacyShop.schemaVersion)): registered \(legacy.registered), purchased \(legacy.purchased)"
    )
}
