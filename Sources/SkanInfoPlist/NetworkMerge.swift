import Foundation
public import SkanCore

/// `skanc plist add-networks`: ad network IDs merged into an Info.plist's SKAdNetworkItems (SKAdNetwork's list of
/// dictionaries, `.skadnetwork` IDs) or AdNetworkIdentifiers (AdAttributionKit's list of strings, which also takes
/// `.adattributionkit` IDs), without duplicates, keeping the entries there and their order. IDs are trimmed and
/// lowercased; one malformed ID, a repeated top-level key or a list that is not an array stops the merge with
/// nothing changed.
public struct NetworkMerge {
    /// The list the IDs go into.
    public enum Destination: String, Sendable, CaseIterable {
        /// SKAdNetwork's `SKAdNetworkItems`: `{SKAdNetworkIdentifier: id}` dictionaries, `.skadnetwork` IDs only.
        case skAdNetworkItems = "SKAdNetworkItems"
        /// AdAttributionKit's `AdNetworkIdentifiers`: strings, `.adattributionkit` and `.skadnetwork` IDs.
        case adNetworkIdentifiers = "AdNetworkIdentifiers"

        /// The ID suffixes the list takes.
        var suffixes: [String] {
            switch self {
            case .skAdNetworkItems: [".skadnetwork"]
            case .adNetworkIdentifiers: [".adattributionkit", ".skadnetwork"]
            }
        }

        /// The ID an entry of the list holds.
        func identifier(of entry: Any) -> String? {
            switch self {
            case .skAdNetworkItems: (entry as? [String: Any])?["SKAdNetworkIdentifier"] as? String
            case .adNetworkIdentifiers: entry as? String
            }
        }

        /// The entry that holds `identifier`.
        func entry(for identifier: String) -> Any {
            switch self {
            case .skAdNetworkItems: ["SKAdNetworkIdentifier": identifier]
            case .adNetworkIdentifiers: identifier
            }
        }
    }

    /// The file with the IDs merged in (unchanged when `added` is 0).
    public var file: InfoPlistFile
    /// IDs appended to the list.
    public var added: Int
    /// IDs that were there already.
    public var alreadyPresent: Int
    /// The entries of the list now.
    public var total: Int

    /// Why nothing was merged: diagnostics of the Info.plist (`plist`) and of the file of IDs (`ids`).
    public struct Refusal: Error {
        /// Problems of the Info.plist.
        public var plist: [Diagnostic] = []
        /// Problems of the file of IDs, each at its line when it has one.
        public var ids: [Diagnostic] = []
    }

    /// Merges `identifiers` (each with its line in the file of IDs, if it has one) into `destination` of `file`.
    public static func merge(
        _ identifiers: [(identifier: String, line: Int?)], into file: InfoPlistFile,
        destination: Destination = .skAdNetworkItems
    ) throws(Refusal) -> NetworkMerge {
        guard file.repeatedKeys.isEmpty else { throw Refusal(plist: [.keysRepeated(file.repeatedKeys)]) }
        var wanted: [String] = []
        var malformed: [Diagnostic] = []
        for (identifier, line) in identifiers {
            let clean = identifier.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
            if destination == .skAdNetworkItems, clean.hasSuffix(".adattributionkit"),
                InfoPlistCheck.identifierProblem(clean, suffixes: [".adattributionkit"]) == nil
            {
                malformed.append(.adAttributionKitID(identifier, line: line))
            } else if let (_, hint) = InfoPlistCheck.identifierProblem(clean, suffixes: destination.suffixes) {
                malformed.append(.malformedID(identifier, hint: hint, line: line))
            } else {
                wanted.append(clean)
            }
        }
        guard malformed.isEmpty else { throw Refusal(ids: malformed) }
        guard let entries = (file.root[destination.rawValue] ?? [Any]()) as? [Any] else {
            throw Refusal(plist: [.listNotArray(destination.rawValue)])
        }
        var present = Set(entries.compactMap(destination.identifier(of:)))
        var merged = entries
        var added = 0
        for identifier in wanted where !present.contains(identifier) {
            merged.append(destination.entry(for: identifier))
            present.insert(identifier)
            added += 1
        }
        var result = file
        if added > 0 { result.root[destination.rawValue] = merged }
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

    fileprivate static func listNotArray(_ key: String) -> Diagnostic {
        .error(
            key == "SKAdNetworkItems" ? .skadnetworkItemsNotArray : .adNetworkIdentifiersNotArray,
            "\(key) must be an array; fix it first", at: nil)
    }

    fileprivate static func adAttributionKitID(_ identifier: String, line: Int?) -> Diagnostic {
        .error(
            .networkIDMalformed,
            "\(InfoPlistCheck.shown(identifier)) is an AdAttributionKit ID, which SKAdNetworkItems does not take; add it with --key AdNetworkIdentifiers",
            at: line.map(SourceLocation.line))
    }
}
