public import Foundation
public import SkanCore

/// An Info.plist read from disk: its dictionary, its format (XML or binary, kept when it is written back), its
/// top-level keys that appear more than once, and, for XML, the outline that gives findings their lines.
/// Untrusted bytes reach Foundation's reader only within bounds: at most `maximumBytes`, and a binary list
/// whose containers are not shared (`BinaryPlistBounds`).
public struct InfoPlistFile {
    /// The top-level dictionary.
    public var root: [String: Any]
    /// XML or binary; written back the same way.
    public var format: PropertyListSerialization.PropertyListFormat
    var outline: XMLPlistOutline?
    /// Top-level keys written more than once: Foundation keeps one copy and drops the others.
    public var repeatedKeys: [String]

    /// A file that cannot be read as what it should be: one diagnostic, of the whole file.
    public struct Unreadable: Error {
        /// What is wrong, for `DiagnosticFormatter.format(_:path:)`.
        public var diagnostic: Diagnostic
    }

    /// Info.plists and lists of IDs are kilobytes; larger input is refused before it is parsed. A reader passes
    /// one byte more than this, so that "over the limit" is seen.
    public static let maximumBytes = 8 << 20

    /// A property list from `bytes`, after the bounds checks; nil when the bytes are not one.
    static func propertyList(
        _ bytes: [UInt8], format: inout PropertyListSerialization.PropertyListFormat
    ) throws(Unreadable) -> (value: Any, repeatedKeys: [String])? {
        var repeated: [String] = []
        if BinaryPlistBounds.isBinary(bytes) {
            do {
                repeated = try BinaryPlistBounds.check(bytes)
            } catch {
                throw .refused(error.reason)
            }
        }
        guard let value = try? PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: &format)
        else { return nil }
        return (value, repeated)
    }

    /// An Info.plist from its bytes (XML or binary).
    public static func parse(_ bytes: [UInt8]) throws(Unreadable) -> InfoPlistFile {
        guard bytes.count <= maximumBytes else { throw .tooLarge }
        var format = PropertyListSerialization.PropertyListFormat.xml
        guard let (value, binaryRepeats) = try propertyList(bytes, format: &format) else {
            throw .notPropertyList
        }
        guard let root = value as? [String: Any] else {
            throw .notDictionary
        }
        let outline = format == .xml ? XMLPlistOutline(String(decoding: bytes, as: UTF8.self)) : nil
        let repeated = outline.map { outline in outline.keyOrder.filter { outline.keyLines[$0]!.count > 1 } }
        return InfoPlistFile(root: root, format: format, outline: outline, repeatedKeys: repeated ?? binaryRepeats)
    }

    /// The file's bytes in its own format (OpenStep, which Foundation cannot write, becomes XML).
    public func data() throws -> Data {
        try PropertyListSerialization.data(
            fromPropertyList: root, format: format == .binary ? .binary : .xml, options: 0)
    }

    /// Ad network IDs from a file: a property list (an array of strings, an array of `SKAdNetworkIdentifier`
    /// dictionaries, or a dictionary holding `SKAdNetworkItems`), or text with one ID per line (LF, CR LF or CR;
    /// a byte-order mark, blank lines and `#` comments skipped).
    /// The ad network IDs of a file's bytes, (a property list of IDs, or text with one ID per line).
    public static func networkIdentifiers(of contents: [UInt8]) throws(Unreadable) -> [(
        identifier: String, line: Int?
    )] {
        guard contents.count <= maximumBytes else { throw .tooLarge }
        var bytes = contents
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var format = PropertyListSerialization.PropertyListFormat.xml
        if let (value, _) = try propertyList(bytes, format: &format), !(value is String) {
            let list = (value as? [String: Any])?["SKAdNetworkItems"] ?? value
            guard let items = list as? [Any] else {
                throw .notListOfIDs
            }
            return try items.map { item throws(Unreadable) in
                if let identifier = item as? String { return (identifier, nil) }
                if let identifier = (item as? [String: Any])?["SKAdNetworkIdentifier"] as? String {
                    return (identifier, nil)
                }
                throw .notAnID
            }
        }
        return lines(of: bytes).enumerated().compactMap { index, line in
            let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces)
            return text.isEmpty || text.hasPrefix("#") ? nil : (text, index + 1)
        }
    }

    /// The lines of `bytes`, split at LF, CR LF or a lone CR, on bytes (a `Character` would join CR LF).
    static func lines(of bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var start = 0
        var index = 0
        while index < bytes.count {
            if bytes[index] == 10 || bytes[index] == 13 {
                lines.append(bytes[start..<index])
                if bytes[index] == 13, index + 1 < bytes.count, bytes[index + 1] == 10 { index += 1 }
                start = index + 1
            }
            index += 1
        }
        if start < bytes.count { lines.append(bytes[start...]) }
        return lines
    }
}

extension InfoPlistFile.Unreadable {
    static let tooLarge = Self(
        diagnostic: .error(
            .plistTooLarge, "the file is over \(InfoPlistFile.maximumBytes >> 20) MiB; name the app's Info.plist",
            at: nil))
    static func refused(_ reason: String) -> Self {
        Self(diagnostic: .error(.plistUnreadable, "not read: \(reason)", at: nil))
    }
    static let notPropertyList = Self(
        diagnostic: .error(.plistUnreadable, "not a property list (XML or binary); name the app's Info.plist", at: nil))
    static let notDictionary = Self(
        diagnostic: .error(
            .plistNotDictionary, "an Info.plist is a dictionary at the top; name the app's Info.plist", at: nil))
    static let notListOfIDs = Self(
        diagnostic: .error(
            .networkIDsUnreadable,
            "a property list of IDs is an array, or holds SKAdNetworkItems; give one ID per line",
            at: nil))
    static let notAnID = Self(
        diagnostic: .error(
            .networkIDsUnreadable,
            "each item is an ID string or a dictionary with SKAdNetworkIdentifier; give one ID per line", at: nil))
}
