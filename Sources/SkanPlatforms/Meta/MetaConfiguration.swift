public import SkanCore

/// Meta's `ios_skadnetwork_conversion_config` as its SDK reads it (facebook-ios-sdk,
/// FBSDKSKAdNetworkConversionConfiguration and the rule, coarse-rule and lock-rule types it parses): the first
/// object of `data` (or the object itself), with `default_currency`, `conversion_value_rules`, `coarse_cv_configs`,
/// `lock_window_rules` and `cutoff_time`. A key the SDK does not read is reported as ignored; a key it reads with
/// the wrong type is an error.
public struct MetaConfiguration: Sendable {
    /// An event a rule names: logged at all, and, with `values`, a sum in one of the currencies over its amount.
    public struct Event: Sendable, Equatable {
        /// `event_name`.
        public var name: String
        /// `values`: amount by currency (upper case); nil when the rule names none.
        public var values: [(currency: String, amount: Double)]?

        /// The same name and the same amounts in the same currencies, in order.
        public static func == (left: Event, right: Event) -> Bool {
            left.name == right.name && left.values?.map(\.currency) == right.values?.map(\.currency)
                && left.values?.map(\.amount) == right.values?.map(\.amount)
        }
    }

    /// One of `conversion_value_rules`: the value when all its events match.
    public struct Rule: Sendable, Equatable {
        /// `conversion_value`.
        public var conversionValue: Int
        /// `events`, all of which must match.
        public var events: [Event]
    }

    /// One of a coarse config's `coarse_cv_rules`.
    public struct CoarseRule: Sendable, Equatable {
        /// `coarse_cv_value`.
        public var value: CoarseValue
        /// `events`, all of which must match.
        public var events: [Event]
    }

    /// One of `lock_window_rules`: a window locked at a time (`time`, read as hours since install) or when
    /// events match.
    public struct LockRule: Sendable, Equatable {
        /// `postback_sequence_index`, 1-based as the SDK counts postbacks.
        public var postbackSequenceIndex: Int
        /// `time`, for a lock of type `time`.
        public var hours: Double?
        /// `events`, for a lock of type `event`.
        public var events: [Event]
    }

    /// `default_currency`, upper case: values in a currency no rule names count in it.
    public var defaultCurrency: String
    /// `conversion_value_rules`, highest value first (as the SDK sorts them).
    public var rules: [Rule]
    /// `coarse_cv_configs` by 1-based postback index, each config's rules high first (as the SDK sorts them).
    public var coarseRules: [Int: [CoarseRule]]
    /// `lock_window_rules`.
    public var lockRules: [LockRule]
    /// `cutoff_time`, in days; the SDK updates nothing in postback 1 after it (and nothing at all when it is 0).
    public var cutoffDays: Int
    /// The key path where each event name is first named (`data[0].conversion_value_rules[2].events[0].event_name`).
    public var eventPaths: [String: String] = [:]
    /// Keys read but not carried (`timer_buckets`, `timer_interval`, `is_coarse_cv_accumulative`) and keys the SDK
    /// does not read, as warnings.
    public var warnings: [Diagnostic]

    /// Every currency a rule names, upper case, with the default first.
    public var currencies: [String] {
        var seen = [defaultCurrency]
        let events =
            rules.flatMap(\.events) + coarseRules.values.flatMap { $0.flatMap(\.events) }
            + lockRules.flatMap(\.events)
        for event in events {
            for value in event.values ?? [] where !seen.contains(value.currency) { seen.append(value.currency) }
        }
        return seen
    }
}
