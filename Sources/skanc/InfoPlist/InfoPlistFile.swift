import Foundation

/// An Info.plist read from disk: its dictionary, its format (XML or binary, kept when it is written back)
/// and, for XML, its text (for the lines of findings).
struct InfoPlistFile {
    var root: [String: Any]
    var format: PropertyListSerialization.PropertyListFormat
    var text: String?

    struct ReadError: Error {
        var message: String
    }

    static func read(_ path: String) throws(ReadError) -> InfoPlistFile {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ReadError(message: "\(path): error: cannot read the file; check the path")
        }
        var format = PropertyListSerialization.PropertyListFormat.xml
        let value: Any
        do {
            value = try PropertyListSerialization.propertyList(from: data, options: [], format: &format)
        } catch {
            throw ReadError(
                message:
                    "\(path): error: [plist-unreadable] not a property list (XML or binary): \(error.localizedDescription)"
            )
        }
        guard let root = value as? [String: Any] else {
            throw ReadError(message: "\(path): error: [plist-not-dictionary] an Info.plist is a dictionary at the top")
        }
        return InfoPlistFile(
            root: root, format: format, text: format == .xml ? String(decoding: data, as: UTF8.self) : nil)
    }

    /// The file's bytes in its own format (OpenStep, which Foundation cannot write, becomes XML).
    func data() throws -> Data {
        try PropertyListSerialization.data(
            fromPropertyList: root, format: format == .binary ? .binary : .xml, options: 0)
    }

    /// Ad network IDs from a file: a property list (an array of strings, an array of `SKAdNetworkIdentifier`
    /// dictionaries, or a dictionary holding `SKAdNetworkItems`), or text with one ID per line (blank lines
    /// and `#` comments skipped).
    static func networkIdentifiers(in path: String) throws(ReadError) -> [(identifier: String, line: Int?)] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ReadError(message: "\(path): error: cannot read the file; check the path")
        }
        if let value = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil),
            !(value is String)
        {
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
        return String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .enumerated().compactMap { index, line in
                let text = line.trimmingCharacters(in: .whitespacesAndNewlines)
                return text.isEmpty || text.hasPrefix("#") ? nil : (text, index + 1)
            }
    }
}
