import Foundation

/// Checks that every use of a mirrored Apple API sits where the OS is at least as new as the API: inside
/// an `if #available(iOS N, *)` block or an `@available(iOS N, *)` declaration with N ≥ the API's
/// version. The APIs and versions come from the mirror's own `@available` attributes.
enum AppleAvailabilityCheck {
    /// A version like 17.4, comparable.
    struct Version: Comparable, CustomStringConvertible {
        var parts: [Int]
        init(_ text: String) { parts = text.split(separator: ".").compactMap { Int($0) } }
        static func < (left: Version, right: Version) -> Bool {
            for index in 0..<max(left.parts.count, right.parts.count) {
                let (a, b) = (
                    index < left.parts.count ? left.parts[index] : 0, index < right.parts.count ? right.parts[index] : 0
                )
                if a != b { return a < b }
            }
            return false
        }
        var description: String { parts.map(String.init).joined(separator: ".") }
    }

    /// One mirrored declaration: a type (`SKAdNetwork.CoarseConversionValue`), a member
    /// (`Postback.updateConversionValue`) or an initializer (`PostbackUpdate.init`), with its labels.
    struct API {
        var path: String
        var introduced: Version
        /// Argument labels (`_` for none) and whether each has a default; nil for types and properties.
        var parameters: [(label: String, hasDefault: Bool)]?

        /// Whether a call with `labels` can be this overload.
        func accepts(_ labels: [String], trailingClosure: Bool) -> Bool {
            guard let parameters else { return true }
            var remaining = parameters[...]
            for label in labels {
                // Arguments come in order; parameters skipped on the way must have defaults.
                guard let index = remaining.firstIndex(where: { $0.label == label }),
                    remaining[..<index].allSatisfy(\.hasDefault)
                else { return false }
                remaining = remaining[(index + 1)...]
            }
            // A trailing closure is the last parameter; what lies between must have defaults.
            if trailingClosure {
                guard !remaining.isEmpty else { return false }
                remaining = remaining.dropLast()
            }
            return remaining.allSatisfy(\.hasDefault)
        }
    }

    // MARK: Reading the mirror

    /// The declarations of the mirror, with the availability each has (its own or its type's).
    static func apis(inMirror source: SwiftSourceText) -> [API] {
        let code = source.code
        var apis: [API] = []
        var pending: Version?
        // Open braces: the type each declares (nil for other blocks) and its availability.
        var stack: [(type: String?, introduced: Version?)] = []
        var index = 0
        let characters = code
        // `tail` is the text from `index` on; both advance together.
        var tail = Substring(source.text)
        func advance(by count: Int) {
            index += count
            tail = tail.dropFirst(count)
        }
        // The regular expressions are tried only where one can start (an `@`, or a keyword's first letter after no
        // letter): tried at every character, they took seconds for this one file.
        let keywordLetters: Set<Character> = ["o", "p", "f", "c", "s", "e", "i"]
        while index < code.count {
            let startsWord = index == 0 || !(characters[index - 1].isLetter || characters[index - 1] == "_")
            let mayStartKeyword = keywordLetters.contains(code[index])
            if code[index] == "@", let match = tail.prefixMatch(of: #/@available\(iOS(?:, introduced:)? ([0-9.]+)/#) {
                pending = Version(String(match.1))
                advance(by: match.0.count)
                continue
            }
            if mayStartKeyword, startsWord,
                let match = tail.prefixMatch(
                    of:
                        #/(?:open |public |final )*(?:class|struct|enum) (?!func |var |let )([A-Za-z_][A-Za-z0-9_]*)[^{]*\{/#
                )
            {
                let outer = stack.compactMap(\.type).joined(separator: ".")
                let path = outer.isEmpty ? String(match.1) : "\(outer).\(match.1)"
                let introduced = max(pending ?? Version("0"), stack.compactMap(\.introduced).max() ?? Version("0"))
                apis.append(API(path: path, introduced: introduced, parameters: nil))
                stack.append((String(match.1), introduced))
                pending = nil
                advance(by: match.0.count)
                continue
            }
            if mayStartKeyword, startsWord,
                let match = tail.prefixMatch(
                    of: #/(?:open |public |static |class )*(?:func ([A-Za-z_][A-Za-z0-9_]*)|(init))\(/#)
            {
                let name = String(match.1 ?? match.2!)
                let open = index + match.0.count - 1
                let close = matchingParenthesis(in: code, from: open)
                let parameters = topLevelSplit(Array(code[(open + 1)..<close])).compactMap(parameter)
                let owner = stack.compactMap(\.type).joined(separator: ".")
                let introduced = max(pending ?? Version("0"), stack.compactMap(\.introduced).max() ?? Version("0"))
                apis.append(API(path: "\(owner).\(name)", introduced: introduced, parameters: parameters))
                pending = nil
                advance(by: close + 1 - index)
                continue
            }
            if mayStartKeyword,
                let match = tail.prefixMatch(of: #/(?:public |open )(?:static )?(?:let|var) ([A-Za-z_][A-Za-z0-9_]*)/#)
            {
                let owner = stack.compactMap(\.type).joined(separator: ".")
                let introduced = max(pending ?? Version("0"), stack.compactMap(\.introduced).max() ?? Version("0"))
                apis.append(API(path: "\(owner).\(match.1)", introduced: introduced, parameters: nil))
                pending = nil
                advance(by: match.0.count)
                continue
            }
            switch code[index] {
            case "{": stack.append((nil, nil))
            case "}": if !stack.isEmpty { stack.removeLast() }
            default: break
            }
            advance(by: 1)
        }
        return apis
    }

    /// `label name: Type = default` → the label and whether there is a default.
    static func parameter(_ text: [Character]) -> (label: String, hasDefault: Bool)? {
        let string = String(text).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let colon = string.firstIndex(of: ":") else { return nil }
        let names = string[..<colon].split(separator: " ")
        guard let label = names.first else { return nil }
        let type = Array(string[string.index(after: colon)...])
        return (String(label), topLevelSplit(type, on: "=").count > 1)
    }

    // MARK: Checking the calling code

    /// Uses of `apis` in `source` where the OS may be older than the API, one line each.
    /// `floor` is the package's lowest iOS version: what code outside any check may assume.
    static func problems(in source: SwiftSourceText, name: String, apis: [API], floor: Version) -> [String] {
        let code = source.code
        let types = Set(apis.filter { $0.parameters == nil }.map(\.path))
        var problems: [String] = []
        // Availability of each open block, and where the text since the last brace starts.
        var stack: [Version?] = []
        var headerStart = 0
        var index = 0
        while index < code.count {
            let character = code[index]
            if character == "{" {
                stack.append(guardedVersion(String(code[headerStart..<index])))
                headerStart = index + 1
                index += 1
                continue
            }
            if character == "}" {
                if !stack.isEmpty { stack.removeLast() }
                headerStart = index + 1
                index += 1
                continue
            }
            guard character.isLetter || character == "_",
                index == 0
                    || !(code[index - 1].isLetter || code[index - 1].isNumber || code[index - 1] == "_"
                        || code[index - 1] == ".")
            else {
                index += 1
                continue
            }
            // A dotted chain of names, like `SKAdNetwork.updatePostbackConversionValue`.
            var end = index
            while end < code.count,
                code[end].isLetter || code[end].isNumber || code[end] == "_"
                    || (code[end] == "." && end + 1 < code.count && code[end + 1].isLetter)
            {
                end += 1
            }
            var components = String(code[index..<end]).split(separator: ".").map(String.init)
            if ["AdAttributionKit", "StoreKit"].contains(components.first) { components.removeFirst() }
            let header = String(code[headerStart..<index])
            let available = (stack.compactMap { $0 } + [declarationVersion(header)].compactMap { $0 }).max()
            // The longest prefix that is a mirrored type, then maybe one member of it.
            if let typeLength = (1...max(components.count, 1)).reversed().first(where: {
                types.contains(components.prefix($0).joined(separator: "."))
            }) {
                let type = components.prefix(typeLength).joined(separator: ".")
                var required = apis.first { $0.path == type }!.introduced
                var what = type
                let isCall = end < code.count && code[end] == "("
                let member = typeLength < components.count ? components[typeLength] : (isCall ? "init" : nil)
                if let member {
                    let candidates = apis.filter { $0.path == "\(type).\(member)" }
                    if !candidates.isEmpty {
                        var labels: [String] = []
                        var trailingClosure = false
                        if isCall {
                            let close = matchingParenthesis(in: code, from: end)
                            labels = topLevelSplit(Array(code[(end + 1)..<close])).map(argumentLabel)
                            trailingClosure = code[(close + 1)...].first { !$0.isWhitespace } == "{"
                        }
                        let matching = candidates.filter {
                            !isCall || $0.accepts(labels, trailingClosure: trailingClosure)
                        }
                        required = max(required, (matching.isEmpty ? candidates : matching).map(\.introduced).max()!)
                        what = isCall ? "\(type).\(member)(\(labels.map { "\($0):" }.joined()))" : "\(type).\(member)"
                    }
                }
                if max(available ?? floor, floor) < required {
                    let found = available.map { "iOS \($0)" } ?? "any iOS version"
                    problems.append(
                        "\(name):\(source.line(at: index)): \(what) needs iOS \(required) but is reachable on \(found); put it inside 'if #available(iOS \(required), *)'"
                    )
                }
            }
            index = end
        }
        return problems
    }

    /// The version an `if #available(iOS N, *)` guarding the block after `header` promises.
    static func guardedVersion(_ header: String) -> Version? {
        guard
            let match = withoutDirectives(header).firstMatch(
                of: #/(?:^|[ }])(?:else )?if #available\(iOS ([0-9.]+)[^)]*\)[^{]*$/#)
        else {
            return declarationVersion(header)
        }
        return Version(String(match.1))
    }

    /// The version an `@available(iOS N, *)` at the start of `header` gives the declaration after it.
    static func declarationVersion(_ header: String) -> Version? {
        guard let match = withoutDirectives(header).prefixMatch(of: #/@available\(iOS(?:, introduced:)? ([0-9.]+)/#)
        else { return nil }
        return Version(String(match.1))
    }

    /// `header`'s lines, trimmed and joined by spaces, without compiler directives (`#if …`).
    static func withoutDirectives(_ header: String) -> String {
        header.components(separatedBy: .newlines).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }.joined(separator: " ")
    }

    /// `label: value` → `label`; a value without a label → `_`.
    static func argumentLabel(_ argument: [Character]) -> String {
        let text = String(argument).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let match = text.prefixMatch(of: #/([A-Za-z_][A-Za-z0-9_]*) *:(?!:)/#) else { return "_" }
        return String(match.1)
    }

    static func matchingParenthesis(in code: [Character], from open: Int) -> Int {
        var depth = 0
        for position in open..<code.count {
            if code[position] == "(" { depth += 1 }
            if code[position] == ")" {
                depth -= 1
                if depth == 0 { return position }
            }
        }
        return code.count - 1
    }

    /// Splits on `separator` outside parentheses, brackets and braces.
    static func topLevelSplit(_ text: [Character], on separator: Character = ",") -> [[Character]] {
        var parts: [[Character]] = [[]]
        var depth = 0
        for character in text {
            if "([{".contains(character) { depth += 1 }
            if ")]}".contains(character) { depth -= 1 }
            if character == separator, depth == 0 { parts.append([]) } else { parts[parts.count - 1].append(character) }
        }
        return parts.filter { !String($0).trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
    }
}
