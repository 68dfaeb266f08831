import Foundation
public import SkanCore

/// `skanc plist add-networks`: ad network IDs merged into an Info.plist's SKAdNetworkItems, without
/// duplicates, keeping the entries there and their order. IDs are trimmed and lowercased; one malformed ID, a
/// repeated top-level key or an SKAdNetworkItems that is not an array stops the merge with nothing changed.
public struct NetworkMerge {
    /// The file with the IDs merged in (unchanged when `added` is 0).
    public var file: InfoPlistFile
    /// IDs appended to SKAdNetworkItems.
    public var added: Int
    /// IDs that were there already.
    public var alreadyPresent: Int
    /// The items in SKAdNetworkItems now.
    public var total: Int

    /// Why nothing was merged: diagnostics of the Info.plist (`plist`) and of the file of IDs (`ids`).
    public struct Refusal: Error {
        /// Problems of the Info.plist.
        public var plist: [Diagnostic] = []
        /// Problems of the file of IDs, each at its line when it has one.
        public var ids: [Diagnostic] = []
    }

    /// Merges `identifiers` (each with its line in the file of IDs, if it has one) into `file`.
    public static func merge(
        _ identifiers: [(identifier: String, line: Int?)], into file: InfoPlistFile
    ) throws(Refusal) -> NetworkMerge {
        guard file.repeatedKeys.isEmpty else { throw Refusal(plist: [.keysRepeated(file.repeatedKeys)]) }
        var wanted: [String] = []
        var malformed: [Diagnostic] = []
        for (identifier, line) in identifiers {
            let clean = identifier.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
            if let (_, hint) = InfoPlistCheck.identifierProblem(clean, suffixes: [".skadnetwork"]) {
                malformed.append(.malformedID(identifier, hint: hint, line: line))
            } else {
                wanted.append(clean)
            }
        }
        guard malformed.isEmpty else { throw Refusal(ids: malformed) }
        guard let items = (file.root["SKAdNetworkItems"] ?? [Any]()) as? [Any] else {
            throw Refusal(plist: [.itemsNotArray])
        }
        var present = Set(items.compactMap { ($0 as? [String: Any])?["SKAdNetworkIdentifier"] as? String })
        var merged = items
        var added = 0
        for identifier in wanted where !present.contains(identifier) {
            merged.append(["SKAdNetworkIdentifier": identifier])
            present.insert(identifier)
            added += 1
        }
        var result = file
        if added > 0 { result.root["SKAdNetworkItems"] = merged }
        return NetworkMerge(file: result, added: added, alreadyPresent: wanted.count - added, total: merged.count)
    }
}

extension Diagnostic {
    fileprivate static func keysRepeated(_ keys: [String]) -> Diagnostic {
        .error(
            .plistKeyRepeated,
            "\(keys.joined(separator: ", ")) written more than once; merge the copies first ('skanc plist check' shows where); nothing written",
            at: nil)
    }

    fileprivate static func malformedID(_ identifier: String, hint: String, line: Int?) -> Diagnostic {
        .error(.networkIDMalformed, "\(InfoPlistCheck.shown(identifier)): \(hint)", at: line.map(SourceLocation.line))
    }

    fileprivate static let itemsNotArray = Diagnostic.error(
        .skadnetworkItemsNotArray, "SKAdNetworkItems must be an array; fix it first", at: nil)
}
