import SkanCore
import SkanSchema

extension MetaConfiguration {
    /// Reads the configuration's JSON; every problem is reported with its key path, as many as found.
    public static func read(_ bytes: [UInt8]) throws(ConfigurationReadError) -> MetaConfiguration {
        let document = try ConfigurationJSON.document(
            bytes, tooDeep: "the JSON nests deeper than Meta's configuration")
        var reading = MetaReading()
        guard var configuration = reading.configuration(document), reading.errors.isEmpty else {
            throw ConfigurationReadError(
                diagnostics: reading.errors.isEmpty ? [.metaProblem("", "expected an object")] : reading.errors)
        }
        configuration.warnings = reading.warnings
        configuration.eventPaths = reading.eventPaths
        return configuration
    }
}

/// The reading of each object of the configuration, collecting errors and warnings.
private struct MetaReading {
    var errors: [Diagnostic] = []
    var warnings: [Diagnostic] = []
    /// Where each event name is first named.
    var eventPaths: [String: String] = [:]

    /// A currency as the SDK keeps it (upper case); an error at `path` unless it is three letters, which a
    /// schema's `value` needs (the SDK takes any string, but no app logs amounts in a currency that has no code).
    mutating func currency(_ text: String, at path: String) -> String? {
        guard CurrencyMinorUnits.isCodeShaped(text) else {
            errors.append(
                .metaProblem(
                    path,
                    "'\(TerminalText.visible(text))' is not an ISO 4217 currency code (three letters), which a schema's amounts need; write the code the app's amounts are in (EUR, USD)"
                ))
            return nil
        }
        return text.uppercased()
    }

    mutating func members(_ value: JSONDocument, at path: String, reads: [String]) -> [(String, JSONDocument)]? {
        guard case .object(let members) = value else {
            errors.append(.metaProblem(path, "expected an object"))
            return nil
        }
        for (key, _) in members where !reads.contains(key) {
            warnings.append(.metaIgnored(path, key))
        }
        return members
    }

    mutating func configuration(_ value: JSONDocument) -> MetaConfiguration? {
        var root = value
        var path = ""
        // As the SDK reads it: the first object of `data`; a bare configuration is read as that object.
        if case .array(let items)? = value["data"] {
            guard let first = items.first else {
                errors.append(.metaProblem("data", "is empty; the SDK reads its first object"))
                return nil
            }
            root = first
            path = "data[0]"
        }
        let reads = [
            "timer_buckets", "timer_interval", "cutoff_time", "default_currency", "conversion_value_rules",
            "lock_window_rules", "coarse_cv_configs", "is_coarse_cv_accumulative",
        ]
        guard let members = members(root, at: path, reads: reads) else { return nil }
        var configuration = MetaConfiguration(
            defaultCurrency: "", rules: [], coarseRules: [:], lockRules: [], cutoffDays: 0, warnings: [])
        var sawRules = false
        for (key, member) in members {
            let at = path.isEmpty ? key : "\(path).\(key)"
            switch key {
            case "default_currency":
                if case .string(let code) = member {
                    configuration.defaultCurrency = currency(code, at: at) ?? code.uppercased()
                } else {
                    errors.append(.metaProblem(at, "expected a currency code"))
                }
            case "cutoff_time": configuration.cutoffDays = integer(member, at: at) ?? 0
            case "conversion_value_rules":
                sawRules = true
                configuration.rules = array(member, at: at).enumerated().compactMap { rule($1, at: "\(at)[\($0)]") }
                // The SDK tries them from the highest value down.
                configuration.rules.sort { $0.conversionValue > $1.conversionValue }
            case "coarse_cv_configs":
                for (index, item) in array(member, at: at).enumerated() {
                    guard let (postback, rules) = coarseConfig(item, at: "\(at)[\(index)]") else { continue }
                    configuration.coarseRules[postback] = rules
                }
            case "lock_window_rules":
                configuration.lockRules = array(member, at: at).enumerated().compactMap {
                    lockRule($1, at: "\(at)[\($0)]")
                }
                if !configuration.lockRules.isEmpty { warnings.append(.metaLocksApplied(at)) }
            case "timer_buckets", "timer_interval", "is_coarse_cv_accumulative":
                warnings.append(.metaNotCarried(at, key))
            default:
                break  // a key the SDK does not read: `members` warned of it
            }
        }
        if configuration.defaultCurrency.isEmpty,
            !errors.contains(where: { $0.subject?.hasSuffix("default_currency") ?? false })
        {
            errors.append(.metaProblem(path, "'default_currency' is required"))
        }
        if !sawRules { errors.append(.metaProblem(path, "'conversion_value_rules' is required")) }
        return configuration
    }

    mutating func rule(_ value: JSONDocument, at path: String) -> MetaConfiguration.Rule? {
        guard let members = members(value, at: path, reads: ["conversion_value", "events"]) else { return nil }
        guard
            let conversion = members.last(where: { $0.0 == "conversion_value" }).flatMap({
                integer($0.1, at: "\(path).conversion_value")
            }),
            (0...63).contains(conversion)
        else {
            errors.append(.metaProblem(path, "needs a 'conversion_value' in 0...63"))
            return nil
        }
        let events = events(members, at: path)
        return MetaConfiguration.Rule(conversionValue: conversion, events: events)
    }

    mutating func coarseConfig(_ value: JSONDocument, at path: String) -> (Int, [MetaConfiguration.CoarseRule])? {
        guard let members = members(value, at: path, reads: ["postback_sequence_index", "coarse_cv_rules"]) else {
            return nil
        }
        guard
            let index = members.last(where: { $0.0 == "postback_sequence_index" }).flatMap({
                integer($0.1, at: "\(path).postback_sequence_index")
            }),
            (1...3).contains(index)
        else {
            errors.append(
                .metaProblem(path, "needs a 'postback_sequence_index' of 1, 2 or 3 (the SDK counts postbacks from 1)"))
            return nil
        }
        let items = members.last { $0.0 == "coarse_cv_rules" }.map { array($0.1, at: "\(path).coarse_cv_rules") } ?? []
        var rules: [MetaConfiguration.CoarseRule] = []
        for (position, item) in items.enumerated() {
            let at = "\(path).coarse_cv_rules[\(position)]"
            guard let ruleMembers = self.members(item, at: at, reads: ["coarse_cv_value", "events"]) else { continue }
            guard case .string(let name)? = ruleMembers.last(where: { $0.0 == "coarse_cv_value" })?.1,
                let value = CoarseValue(rawValue: name)
            else {
                errors.append(.metaProblem(at, "needs a 'coarse_cv_value' of low, medium or high"))
                continue
            }
            rules.append(MetaConfiguration.CoarseRule(value: value, events: events(ruleMembers, at: at)))
        }
        // The SDK tries high, then medium, then low.
        let order: [CoarseValue] = [.high, .medium, .low]
        return (index, order.flatMap { value in rules.filter { $0.value == value } })
    }

    mutating func lockRule(_ value: JSONDocument, at path: String) -> MetaConfiguration.LockRule? {
        guard
            let members = members(
                value, at: path, reads: ["lock_window_type", "time", "events", "postback_sequence_index"])
        else { return nil }
        guard
            let index = members.last(where: { $0.0 == "postback_sequence_index" }).flatMap({
                integer($0.1, at: "\(path).postback_sequence_index")
            }),
            (1...3).contains(index)
        else {
            errors.append(.metaProblem(path, "needs a 'postback_sequence_index' of 1, 2 or 3"))
            return nil
        }
        guard case .string(let type)? = members.last(where: { $0.0 == "lock_window_type" })?.1 else {
            errors.append(.metaProblem(path, "needs a 'lock_window_type' of time or event"))
            return nil
        }
        switch type {
        case "time":
            guard case .number(let hours)? = members.last(where: { $0.0 == "time" })?.1, hours >= 0 else {
                errors.append(.metaProblem(path, "a 'time' lock needs a 'time' in hours"))
                return nil
            }
            return MetaConfiguration.LockRule(postbackSequenceIndex: index, hours: hours, events: [])
        case "event":
            let events = events(members, at: path)
            guard !events.isEmpty else {
                errors.append(.metaProblem(path, "an 'event' lock needs 'events'"))
                return nil
            }
            return MetaConfiguration.LockRule(postbackSequenceIndex: index, hours: nil, events: events)
        default:
            errors.append(
                .metaProblem(path, "'\(TerminalText.visible(type))' is not a lock_window_type; it is time or event"))
            return nil
        }
    }

    mutating func events(_ members: [(String, JSONDocument)], at path: String) -> [MetaConfiguration.Event] {
        guard let list = members.last(where: { $0.0 == "events" })?.1 else {
            errors.append(.metaProblem(path, "needs 'events'"))
            return []
        }
        return array(list, at: "\(path).events").enumerated().compactMap { index, item in
            let at = "\(path).events[\(index)]"
            guard let eventMembers = self.members(item, at: at, reads: ["event_name", "values"]) else { return nil }
            guard case .string(let name)? = eventMembers.last(where: { $0.0 == "event_name" })?.1 else {
                errors.append(.metaProblem(at, "needs an 'event_name'"))
                return nil
            }
            if eventPaths[name] == nil { eventPaths[name] = "\(at).event_name" }
            guard let valuesMember = eventMembers.last(where: { $0.0 == "values" })?.1 else {
                return MetaConfiguration.Event(name: name, values: nil)
            }
            var values: [(String, Double)] = []
            for (position, entry) in array(valuesMember, at: "\(at).values").enumerated() {
                let entryPath = "\(at).values[\(position)]"
                guard let entryMembers = self.members(entry, at: entryPath, reads: ["currency", "amount"]),
                    case .string(let currency)? = entryMembers.last(where: { $0.0 == "currency" })?.1,
                    case .number(let amount)? = entryMembers.last(where: { $0.0 == "amount" })?.1
                else {
                    errors.append(.metaProblem(entryPath, "needs a 'currency' and an 'amount'"))
                    continue
                }
                guard amount >= 0, amount <= ConditionNumber.largest else {
                    errors.append(
                        .metaProblem(
                            "\(entryPath).amount",
                            "an amount of \(ConditionNumber.text(amount)) cannot be a schema's condition (0 to 1e15); correct it in Meta's configuration"
                        ))
                    continue
                }
                guard let code = self.currency(currency, at: "\(entryPath).currency") else { continue }
                // The SDK keeps one amount per currency, the last.
                values.removeAll { $0.0 == code }
                values.append((code, amount))
            }
            return MetaConfiguration.Event(name: name, values: values)
        }
    }

    mutating func array(_ value: JSONDocument, at path: String) -> [JSONDocument] {
        guard case .array(let items) = value else {
            errors.append(.metaProblem(path, "expected an array"))
            return []
        }
        return items
    }

    mutating func integer(_ value: JSONDocument, at path: String) -> Int? {
        guard case .number(let number) = value, number == number.rounded(), abs(number) < 1e9 else {
            errors.append(.metaProblem(path, "expected a whole number"))
            return nil
        }
        return Int(number)
    }
}

extension Diagnostic {
    fileprivate static func metaProblem(_ path: String, _ message: String) -> Diagnostic {
        .error(.importJSON, message, at: nil, subject: path.isEmpty ? "the configuration" : path)
    }

    fileprivate static func metaIgnored(_ path: String, _ key: String) -> Diagnostic {
        .warning(
            .importJSON, "'\(TerminalText.visible(key))' is not read by Meta's SDK; ignored", at: nil,
            subject: path.isEmpty ? "the configuration" : path)
    }

    fileprivate static func metaLocksApplied(_ path: String) -> Diagnostic {
        .warning(
            .importJSON,
            "Meta's SDK parses lock_window_rules and never applies them (FBSDKSKAdNetworkReporterV2); the schema applies them, so its windows lock where the SDK's would not; remove them from the configuration to match the SDK",
            at: nil, subject: path)
    }

    fileprivate static func metaNotCarried(_ path: String, _ key: String) -> Diagnostic {
        .warning(
            .importJSON,
            "'\(key)' (the SKAdNetwork 3 timer, or a flag the SDK does not apply) has no counterpart in a schema; not carried",
            at: nil, subject: path)
    }
}
