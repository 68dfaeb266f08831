import Foundation

/// An Info.plist read from disk: its dictionary, its format (XML or binary, kept when it is written back), its
/// top-level keys that appear more than once, and, for XML, the outline that gives findings their lines.
/// Untrusted bytes reach Foundation's reader only within bounds: at most `maximumBytes`, and a binary list
/// whose containers are not shared (`BinaryPlistBounds`).
struct InfoPlistFile {
    var root: [String: Any]
    var format: PropertyListSerialization.PropertyListFormat
    var outline: XMLPlistOutline?
    /// Top-level keys written more than once: Foundation keeps one copy and drops the others.
    var repeatedKeys: [String]

    struct ReadError: Error {
        var message: String
    }

    /// Info.plists and lists of IDs are kilobytes; larger input is refused before it is parsed.
    static let maximumBytes = 8 << 20

    /// The file's bytes, within the size bound.
    static func contents(of path: String) throws(ReadError) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ReadError(message: "\(path): error: cannot read the file; check the path")
        }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: maximumBytes + 1)) ?? Data()
        guard data.count <= maximumBytes else {
            throw ReadError(
                message:
                    "\(path): error: [plist-too-large] the file is over \(maximumBytes >> 20) MiB; name the app's Info.plist"
            )
        }
        return [UInt8](data)
    }

    /// A property list from `bytes`, after the bounds checks; nil when the bytes are not one.
    static func propertyList(
        _ bytes: [UInt8], path: String, format: inout PropertyListSerialization.PropertyListFormat
    ) throws(ReadError) -> (value: Any, repeatedKeys: [String])? {
        var repeated: [String] = []
        if BinaryPlistBounds.isBinary(bytes) {
            do {
                repeated = try BinaryPlistBounds.check(bytes)
            } catch {
                throw ReadError(message: "\(path): error: [plist-unreadable] not read: \(error.reason)")
            }
        }
        guard let value = try? PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: &format)
        else { return nil }
        return (value, repeated)
    }

    static func read(_ path: String) throws(ReadError) -> InfoPlistFile {
        let bytes = try contents(of: path)
        var format = PropertyListSerialization.PropertyListFormat.xml
        guard let (value, binaryRepeats) = try propertyList(bytes, path: path, format: &format) else {
            throw ReadError(message: "\(path): error: [plist-unreadable] not a property list (XML or binary)")
        }
        guard let root = value as? [String: Any] else {
            throw ReadError(message: "\(path): error: [plist-not-dictionary] an Info.plist is a dictionary at the top")
        }
        let outline = format == .xml ? XMLPlistOutline(String(decoding: bytes, as: UTF8.self)) : nil
        let repeated = outline.map { outline in outline.keyOrder.filter { outline.keyLines[$0]!.count > 1 } }
        return InfoPlistFile(root: root, format: format, outline: outline, repeatedKeys: repeated ?? binaryRepeats)
    }

    /// The file's bytes in its own format (OpenStep, which Foundation cannot write, becomes XML).
    func data() throws -> Data {
        try PropertyListSerialization.data(
            fromPropertyList: root, format: format == .binary ? .binary : .xml, options: 0)
    }

    /// Ad network IDs from a file: a property list (an array of strings, an array of `SKAdNetworkIdentifier`
    /// dictionaries, or a dictionary holding `SKAdNetworkItems`), or text with one ID per line (LF, CR LF or CR;
    /// a byte-order mark, blank lines and `#` comments skipped).
    static func networkIdentifiers(in path: String) throws(ReadError) -> [(identifier: String, line: Int?)] {
        var bytes = try contents(of: path)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var format = PropertyListSerialization.PropertyListFormat.xml
        if let (value, _) = try propertyList(bytes, path: path, format: &format), !(value is String) {
            let list = (value as? [String: Any])?["SKAdNetworkItems"] ?? value
            guard let items = list as? [Any] else {
                throw ReadError(
                    message: "\(path): error: a property list of IDs is an array, or holds SKAdNetworkItems")
            }
            return try items.map { item throws(ReadError) in
                if let identifier = item as? String { return (identifier, nil) }
                if let identifier = (item as? [String: Any])?["SKAdNetworkIdentifier"] as? String {
                    return (identifier, nil)
                }
                throw ReadError(
                    message: "\(path): error: each item is an ID string or a dictionary with SKAdNetworkIdentifier")
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
