public import SkanCore

extension InfoPlistCheck {
    static let trackingDescriptionKey = "NSUserTrackingUsageDescription"

    /// `NSUserTrackingUsageDescription`: present when the app links tracking authorization, and a text that states
    /// its purpose without pressure (`UsageDescription`).
    mutating func checkTrackingDescription() {
        let key = Self.trackingDescriptionKey
        guard let value = root[key] else {
            add(.noTrackingDescription(key, linksTracking: options.linksTracking), at: key)
            return
        }
        guard let description = value as? String else {
            add(.trackingDescriptionNotString(key), at: key)
            return
        }
        if let problem = UsageDescription.problem(of: description) {
            add(.trackingDescription(description, problem, language: nil), at: key, value: description)
        }
    }

    /// The localized tracking descriptions of a strings file or catalog, judged as the Info.plist's own: each
    /// finding at its line, or, in a catalog, with the language as its subject (`NSUserTrackingUsageDescription[ja]`).
    public static func localizedTrackingDescriptions(_ entries: [LocalizedStrings.Entry]) -> [Diagnostic] {
        entries.compactMap { entry in
            guard let problem = UsageDescription.problem(of: entry.value) else { return nil }
            var diagnostic = Diagnostic.trackingDescription(entry.value, problem, language: entry.language)
            diagnostic.location = entry.line.map(SourceLocation.line)
            if entry.line == nil { diagnostic.subject = "\(trackingDescriptionKey)[\(entry.language ?? "?")]" }
            return diagnostic
        }
    }
}

extension Diagnostic {
    fileprivate static func noTrackingDescription(_ key: String, linksTracking: Bool) -> Diagnostic {
        linksTracking
            ? .error(
                .trackingDescriptionMissing,
                "no \(key), and the app links tracking authorization: it crashes when it asks; say what the data is used for",
                at: nil)
            : .warning(
                .trackingDescriptionMissing,
                "no \(key): the app crashes if it requests tracking authorization; say what the data is used for (with --tracking, an app that links tracking authorization, this is an error)",
                at: nil)
    }

    fileprivate static func trackingDescriptionNotString(_ key: String) -> Diagnostic {
        .error(.trackingDescriptionNotString, "\(key) must be a string; say what the data is used for", at: nil)
    }

    fileprivate static func trackingDescription(
        _ description: String, _ problem: UsageDescription.Problem, language: String?
    ) -> Diagnostic {
        let text = InfoPlistCheck.shown(description) + (language.map { " (\($0))" } ?? "")
        switch problem {
        case .placeholder:
            return .error(
                .trackingDescriptionPlaceholder,
                "\(text) is a placeholder; App Review rejects it: say what the data is used for (say, 'Your data is used to measure which ads brought you to the app.')",
                at: nil)
        case .vague:
            return .error(
                .trackingDescriptionVague,
                "\(text) does not say what the data is used for; App Review rejects vague texts: name the purpose (say, 'Your data is used to measure which ads brought you to the app.')",
                at: nil)
        case .coercive(let phrase):
            return .error(
                .trackingDescriptionCoercive,
                "\(text) pressures the user ('\(phrase)'); App Review rejects apps that require or reward allowing tracking: state the purpose only, and let the app work either way",
                at: nil)
        }
    }
}
