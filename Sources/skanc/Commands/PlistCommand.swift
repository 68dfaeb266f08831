import Foundation

/// `skanc plist check Info.plist` and `skanc plist add-networks Info.plist IDS`.
enum PlistCommand {
    static let command = Command(
        name: "plist",
        summary: "Check an Info.plist's attribution keys, or merge ad network IDs into it.",
        flags: [],
        options: [:],
        help: """
            USAGE: skanc plist check Info.plist
                   skanc plist add-networks Info.plist IDS_FILE

            check reads an Info.plist (XML or binary) and reports, each with its line (XML) or key path (binary)
            and a stable code:
              network-id-uppercase, network-id-malformed, network-id-missing (errors): an entry of SKAdNetworkItems
                or AdNetworkIdentifiers the system does not recognize, so that network's installs are lost;
              network-id-duplicate (warning); skadnetwork-items-missing (warning);
              report-endpoint-not-https, report-endpoint-malformed (errors), report-endpoint-missing,
                report-endpoint-has-path, copy-endpoint-missing (warnings): NSAdvertisingAttributionReportEndpoint
                and AdAttributionKit's AttributionCopyEndpoint;
              tracking-description-placeholder (error), tracking-description-missing (warning):
                NSUserTrackingUsageDescription.

            add-networks merges ad network IDs into SKAdNetworkItems, without duplicates, keeping the entries there
            and their order; IDS_FILE is text with one ID per line (# comments allowed) or a property list (an array
            of IDs, or of SKAdNetworkIdentifier dictionaries). IDs are trimmed and lowercased; a malformed one stops
            the merge with nothing written. The file is rewritten atomically in its own format (XML or binary);
            Foundation writes its keys in order and drops comments.

            OPTIONS:
              -h, --help   Show this help.

            EXIT STATUS: 0 no error (warnings allowed) or merged, 1 an error found or a file that cannot be read or
            written, 64 bad usage.
            """,
        run: run
    )

    static func run(_ arguments: ParsedArguments) throws(UsageError) -> ExitStatus {
        switch (arguments.positionals.first, arguments.positionals.count) {
        case ("check", 2): return check(arguments.positionals[1])
        case ("add-networks", 3): return addNetworks(arguments.positionals[1], from: arguments.positionals[2])
        case ("check", _):
            throw UsageError(message: "check takes one Info.plist", command: "plist")
        case ("add-networks", _):
            throw UsageError(message: "add-networks takes the Info.plist and the file of IDs", command: "plist")
        default:
            throw UsageError(
                message: "say what to do: 'plist check Info.plist' or 'plist add-networks Info.plist IDS'",
                command: "plist")
        }
    }

    private static func check(_ path: String) -> ExitStatus {
        let file: InfoPlistFile
        do {
            file = try InfoPlistFile.read(path)
        } catch {
            Output.error(error.message)
            return .failure
        }
        // In file order (binary lists, which have no lines, in key order).
        let findings = InfoPlistCheck(file).findings.enumerated()
            .sorted { ($0.element.line ?? .max, $0.offset) < ($1.element.line ?? .max, $1.offset) }.map(\.element)
        for finding in findings {
            let place = finding.line.map { "\(path):\($0)" } ?? "\(path): \(finding.path)"
            Output.error("\(place): \(finding.severity.rawValue): [\(finding.code)] \(finding.message)")
        }
        let errors = findings.filter { $0.severity == .error }.count
        if !findings.isEmpty {
            Output.error(
                "\(errors) error\(errors == 1 ? "" : "s"), \(findings.count - errors) warning\(findings.count - errors == 1 ? "" : "s")"
            )
        }
        return errors == 0 ? .success : .failure
    }

    private static func addNetworks(_ path: String, from idsPath: String) -> ExitStatus {
        var file: InfoPlistFile
        let identifiers: [(identifier: String, line: Int?)]
        do {
            file = try InfoPlistFile.read(path)
            identifiers = try InfoPlistFile.networkIdentifiers(in: idsPath)
        } catch {
            Output.error(error.message)
            return .failure
        }
        guard file.repeatedKeys.isEmpty else {
            Output.error(
                "\(path): error: [plist-key-repeated] \(file.repeatedKeys.joined(separator: ", ")) written more than once; merge the copies first ('skanc plist check' shows where); nothing written"
            )
            return .failure
        }
        var wanted: [String] = []
        var malformed = false
        for (identifier, line) in identifiers {
            let clean = identifier.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
            if let (_, hint) = InfoPlistCheck.identifierProblem(clean, suffixes: [".skadnetwork"]) {
                Output.error(
                    "\(idsPath)\(line.map { ":\($0)" } ?? ""): error: [network-id-malformed] \(InfoPlistCheck.shown(identifier)): \(hint)"
                )
                malformed = true
            } else {
                wanted.append(clean)
            }
        }
        guard !malformed else {
            Output.error("\(path): nothing written")
            return .failure
        }
        guard let items = (file.root["SKAdNetworkItems"] ?? [Any]()) as? [Any] else {
            Output.error(
                "\(path): error: [skadnetwork-items-not-array] SKAdNetworkItems must be an array; fix it first")
            return .failure
        }
        var present = Set(items.compactMap { ($0 as? [String: Any])?["SKAdNetworkIdentifier"] as? String })
        var merged = items
        var added = 0
        for identifier in wanted where !present.contains(identifier) {
            merged.append(["SKAdNetworkIdentifier": identifier])
            present.insert(identifier)
            added += 1
        }
        file.root["SKAdNetworkItems"] = merged
        do {
            if added > 0 { try FileOutput.writeIfChanged(data: try file.data(), to: path) }
        } catch let error as FileOutput.WriteError {
            Output.error(error.message)
            return .failure
        } catch {
            Output.error("\(path): error: cannot encode the property list (\(error))")
            return .failure
        }
        Output.standard(
            "\(path): added \(added) ad network ID\(added == 1 ? "" : "s"), \(wanted.count - added) already present, \(merged.count) in all"
        )
        return .success
    }
}
