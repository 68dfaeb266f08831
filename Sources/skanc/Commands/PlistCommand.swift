import Foundation
import SkanCore
import SkanInfoPlist

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
            return Output.diagnostics([error.diagnostic], path: path)
        }
        return Output.diagnostics(InfoPlistCheck(file).diagnostics, path: path, tally: true)
    }

    private static func addNetworks(_ path: String, from idsPath: String) -> ExitStatus {
        let merge: NetworkMerge
        do {
            let file = try InfoPlistFile.read(path)
            let identifiers = try InfoPlistFile.networkIdentifiers(in: idsPath)
            merge = try NetworkMerge.merge(identifiers, into: file)
        } catch let error as InfoPlistFile.Unreadable {
            return Output.diagnostics([error.diagnostic], path: path)
        } catch let refusal as NetworkMerge.Refusal {
            _ = Output.diagnostics(refusal.ids, path: idsPath)
            _ = Output.diagnostics(refusal.plist, path: path)
            Output.error("\(path): nothing written")
            return .failure
        } catch {
            return .failure
        }
        do {
            if merge.added > 0 { try FileOutput.writeIfChanged(data: try merge.file.data(), to: path) }
        } catch let error as FileOutput.WriteError {
            Output.diagnostics([error.diagnostic], path: error.path)
            return .failure
        } catch {
            return Output.diagnostics(
                [.error(.plistUnwritable, "cannot encode the property list (\(error)); nothing written", at: nil)],
                path: path)
        }
        Output.standard(
            "\(path): added \(merge.added) ad network ID\(merge.added == 1 ? "" : "s"), \(merge.alreadyPresent) already present, \(merge.total) in all"
        )
        return .success
    }
}
