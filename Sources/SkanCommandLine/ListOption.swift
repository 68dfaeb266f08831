/// Why an item of a list option is not taken; nil when the option's description of its items says enough.
package struct ListItemRefusal: Error, Sendable {
    package var reason: String?

    package init(_ reason: String? = nil) {
        self.reason = reason
    }
}

/// An option whose value is a list separated by commas (`--by ad_network_id,campaign`, `--tiers 2:0.5,3:0.5`),
/// each item read by the option's own reader: the command reads typed items back (`try arguments.items(by)`),
/// and a bad or repeated item is one usage error in one wording for every command, naming the item.
package struct ListOption<Element>: OptionDeclaration {
    /// The option as the parser and the help see it.
    package let option: CommandOption
    /// What the items are, for the error: `groupings`, `TIER:SHARE pairs, like 0:0.2,2:0.3,3:0.5`.
    package let items: String
    /// Whether an item may appear once only.
    package let unique: Bool
    private let read: @Sendable (String) -> Result<Element, ListItemRefusal>

    /// `read` takes one item's text; its refusal's reason, when it has one, follows the error.
    package init(
        _ names: String..., placeholder: String, default defaultValue: String? = nil, items: String,
        unique: Bool = false, help: String, read: @escaping @Sendable (String) -> Result<Element, ListItemRefusal>
    ) {
        option = CommandOption(
            names: names, value: .text(placeholder: placeholder), defaultValue: defaultValue, isRepeatable: false,
            help: help)
        self.items = items
        self.unique = unique
        self.read = read
    }

    /// The items of `text`, or the usage error that says which one is not taken.
    func values(of text: String) throws(UsageError) -> [Element] {
        var values: [Element] = []
        var seen: Set<String> = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
            switch read(part) {
            case .success(let value):
                guard !unique || seen.insert(part).inserted else {
                    throw UsageError(message: "\(option.name) names '\(part)' twice; name each once")
                }
                values.append(value)
            case .failure(let refusal):
                let shown = part.isEmpty ? "an empty item" : "'\(part)'"
                throw UsageError(
                    message: "\(option.name) takes \(items) separated by commas, not \(shown)"
                        + (refusal.reason.map { ": \($0)" } ?? ""))
            }
        }
        return values
    }
}

extension ParsedArguments {
    /// The items given, or the default's; nil when neither. A bad or repeated item is a usage error.
    package func items<Element>(_ list: ListOption<Element>) throws(UsageError) -> [Element]? {
        guard let text = self[list.option] else { return nil }
        return try list.values(of: text)
    }

    /// Whether the option was given.
    package func has<Element>(_ list: ListOption<Element>) -> Bool { has(list.option) }
}
