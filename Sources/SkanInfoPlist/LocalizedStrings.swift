import Foundation
public import SkanCore

/// The localized values of one key in an `InfoPlist.strings` file (old-style `"key" = "value";` pairs, UTF-8 or
/// UTF-16 with its byte order mark) or a string catalog (`InfoPlist.xcstrings`, JSON), each with its language
/// (the catalog's; a `.strings` file's comes from its `xx.lproj` folder) and its line in the file where the file
/// has lines.
public struct LocalizedStrings {
    /// One localized value.
    public struct Entry: Equatable, Sendable {
        /// The language, `zh-Hans`; nil when the file does not say.
        public var language: String?
        /// The string as the `.strings` or `.xcstrings` file gives it, unescaped.
        public var value: String
        /// The line of the value (1-based); nil in a string catalog.
        public var line: Int?
    }

    /// Why a file cannot be read: a diagnostic to print with its path.
    public struct Unreadable: Error {
        /// What went wrong.
        public var diagnostic: Diagnostic
    }

    /// Strings files larger than this are no Info.plist localization.
    public static let maximumBytes = 8 << 20

    /// The values of `key` in a file's bytes, read as a catalog when `path` ends in `.xcstrings` (and the language
    /// taken from its `xx.lproj` folder otherwise).
    public static func values(of key: String, in bytes: [UInt8], path: String) throws(Unreadable) -> [Entry] {
        guard bytes.count <= maximumBytes else {
            throw Unreadable(diagnostic: .stringsUnreadable("is larger than 8 MiB; no strings file is"))
        }
        let data = Data(bytes)
        if path.hasSuffix(".xcstrings") { return try catalogValues(of: key, in: data) }
        let language = URL(fileURLWithPath: path).deletingLastPathComponent().lastPathComponent
        return try stringsValues(of: key, in: data).map {
            Entry(
                language: language.hasSuffix(".lproj") ? String(language.dropLast(6)) : nil, value: $0.value,
                line: $0.line)
        }
    }

    /// A string catalog's `strings[key].localizations[language].stringUnit.value`, by language.
    static func catalogValues(of key: String, in data: Data) throws(Unreadable) -> [Entry] {
        guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let strings = root["strings"] as? [String: Any]
        else {
            throw Unreadable(diagnostic: .stringsUnreadable("is not a string catalog (JSON with a 'strings' object)"))
        }
        guard let localizations = (strings[key] as? [String: Any])?["localizations"] as? [String: Any] else {
            return []
        }
        return localizations.keys.sorted().compactMap { language in
            let unit = (localizations[language] as? [String: Any])?["stringUnit"] as? [String: Any]
            return (unit?["value"] as? String).map { Entry(language: language, value: $0, line: nil) }
        }
    }

    /// The `key = value;` pairs of an old-style strings file whose key is `key`, with the value's line.
    static func stringsValues(of key: String, in data: Data) throws(Unreadable) -> [(value: String, line: Int)] {
        guard let text = decoded(data) else {
            throw Unreadable(diagnostic: .stringsUnreadable("is neither UTF-8 nor UTF-16 text"))
        }
        var scanner = StringsScanner(Array(text.unicodeScalars))
        var found: [(String, Int)] = []
        while let pair = try scanner.nextPair() {
            if pair.key == key { found.append((pair.value, pair.line)) }
        }
        return found
    }

    /// UTF-16 with a byte order mark (Xcode's old default for strings files), else UTF-8.
    static func decoded(_ data: Data) -> String? {
        let bytes = [UInt8](data)
        if bytes.starts(with: [0xFF, 0xFE]) { return String(data: data, encoding: .utf16LittleEndian)?.trimmingBOM }
        if bytes.starts(with: [0xFE, 0xFF]) { return String(data: data, encoding: .utf16BigEndian)?.trimmingBOM }
        return String(data: data, encoding: .utf8)?.trimmingBOM
    }
}

extension String {
    fileprivate var trimmingBOM: String { hasPrefix("\u{FEFF}") ? String(dropFirst()) : self }
}

/// Reads `key = value;` pairs: keys and values quoted (with `\"`, `\\`, `\n`, `\t`, `\U` escapes) or bare words;
/// `//` and `/* */` comments skipped.
private struct StringsScanner {
    let scalars: [Unicode.Scalar]
    var index = 0
    var line = 1

    init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

    mutating func nextPair() throws(LocalizedStrings.Unreadable) -> (key: String, value: String, line: Int)? {
        skipSpaceAndComments()
        guard index < scalars.count else { return nil }
        let key = try token()
        skipSpaceAndComments()
        guard index < scalars.count, scalars[index] == "=" else { throw malformed("expected '=' after a key") }
        index += 1
        skipSpaceAndComments()
        let valueLine = line
        let value = try token()
        skipSpaceAndComments()
        guard index < scalars.count, scalars[index] == ";" else { throw malformed("expected ';' after a value") }
        index += 1
        return (key, value, valueLine)
    }

    func malformed(_ what: String) -> LocalizedStrings.Unreadable {
        LocalizedStrings.Unreadable(diagnostic: .stringsUnreadable("is not a strings file: \(what) on line \(line)"))
    }

    mutating func skipSpaceAndComments() {
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\n" {
                line += 1
                index += 1
            } else if scalar.properties.isWhitespace {
                index += 1
            } else if scalar == "/", index + 1 < scalars.count, scalars[index + 1] == "/" {
                while index < scalars.count, scalars[index] != "\n" { index += 1 }
            } else if scalar == "/", index + 1 < scalars.count, scalars[index + 1] == "*" {
                index += 2
                while index + 1 < scalars.count, !(scalars[index] == "*" && scalars[index + 1] == "/") {
                    if scalars[index] == "\n" { line += 1 }
                    index += 1
                }
                index = min(index + 2, scalars.count)
            } else {
                return
            }
        }
    }

    mutating func token() throws(LocalizedStrings.Unreadable) -> String {
        guard index < scalars.count else { throw malformed("the file ends early") }
        guard scalars[index] == "\"" else {
            var word = String.UnicodeScalarView()
            while index < scalars.count,
                scalars[index].properties.isAlphabetic || scalars[index].properties.numericType != nil
                    || "_.-$".unicodeScalars.contains(scalars[index])
            {
                word.append(scalars[index])
                index += 1
            }
            guard !word.isEmpty else { throw malformed("expected a quoted string") }
            return String(word)
        }
        index += 1
        var text = String.UnicodeScalarView()
        while index < scalars.count, scalars[index] != "\"" {
            var scalar = scalars[index]
            if scalar == "\n" { line += 1 }
            if scalar == "\\", index + 1 < scalars.count {
                index += 1
                switch scalars[index] {
                case "n": scalar = "\n"
                case "t": scalar = "\t"
                case "r": scalar = "\r"
                case "U", "u":
                    scalar = try unicodeEscape()
                default: scalar = scalars[index]
                }
            }
            text.append(scalar)
            index += 1
        }
        guard index < scalars.count else { throw malformed("a string is not closed") }
        index += 1
        return String(text)
    }
}

extension StringsScanner {
    /// The scalar of a `\\Uxxxx` escape whose `U` is at `index`, joining a surrogate pair written as two escapes;
    /// `index` is left on the last hex digit.
    fileprivate mutating func unicodeEscape() throws(LocalizedStrings.Unreadable) -> Unicode.Scalar {
        func hex(at start: Int) -> UInt32? {
            guard start + 4 <= scalars.count else { return nil }
            return UInt32(String(String.UnicodeScalarView(scalars[start..<start + 4])), radix: 16)
        }
        guard let high = hex(at: index + 1) else { throw malformed("a \\U escape needs four hex digits") }
        index += 4
        if (0xD800...0xDBFF).contains(high), index + 2 < scalars.count, scalars[index + 1] == "\\",
            "Uu".unicodeScalars.contains(scalars[index + 2]), let low = hex(at: index + 3),
            (0xDC00...0xDFFF).contains(low)
        {
            index += 6
            if let joined = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)) { return joined }
        }
        guard let scalar = Unicode.Scalar(high) else { throw malformed("a \\U escape names no character") }
        return scalar
    }
}

extension Diagnostic {
    fileprivate static func stringsUnreadable(_ what: String) -> Diagnostic {
        .error(
            .stringsUnreadable, "the file \(what); give an InfoPlist.strings or an InfoPlist.xcstrings file", at: nil)
    }
}
