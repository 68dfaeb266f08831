import Foundation
import SkanCommandLine
import SkanCore
import SkanFiles
import SkanInfoPlist

/// `skanc plist check Info.plist` and `skanc plist add-networks Info.plist IDS`.
enum PlistCommand {
    static let tracking = CommandOption.flag(
        "--tracking",
        help: "check: the app links tracking authorization (SkanTracking, or AppTrackingTransparency): a missing "
            + "NSUserTrackingUsageDescription is an error, since the app crashes when it asks.")
    static let key = ChoiceOption<NetworkMerge.Destination>(
        "--key", placeholder: "KEY", default: .skAdNetworkItems,
        help: "The list add-networks fills: SKAdNetworkItems or AdNetworkIdentifiers.")

    static let command = Command(
        name: "plist",
        summary: "Check an Info.plist's attribution keys, or merge ad network IDs into it.",
        operands: "check Info.plist [LOCALIZED...] | add-networks Info.plist IDS_FILE",
        options: [tracking, key, ErrorFormatOption.option],
        discussion: """
            check reads an Info.plist (XML or binary) and reports, each with its line (XML) or key path (binary)
            and a stable code:
              network-id-uppercase, network-id-malformed, network-id-missing (errors): an entry of SKAdNetworkItems
                or AdNetworkIdentifiers the system does not recognize, so that network's installs are lost;
              network-id-duplicate (warning); skadnetwork-items-missing (warning);
              report-endpoint-not-https, report-endpoint-malformed (errors), report-endpoint-missing,
                report-endpoint-has-path, report-endpoint-has-subdomain, copy-endpoint-missing (warnings):
                NSAdvertisingAttributionReportEndpoint and AdAttributionKit's AttributionCopyEndpoint;
              tracking-description-placeholder, tracking-description-vague, tracking-description-coercive (errors),
                tracking-description-missing (a warning; an error with --tracking): NSUserTrackingUsageDescription,
                judged in any language (its purpose stated, no pressure on the user);
              adattributionkit-configuration-malformed, attribution-window-out-of-range (click 1-30 days, view 1-7),
                ignore-interaction-type-invalid, attribution-cooldown-out-of-range (0-720 hours),
                attribution-cooldown-spelled-twice (both spellings: a warning),
                eligibility-not-boolean, copy-endpoint-misplaced, reengagement-copies-without-endpoint (errors),
                adattributionkit-key-unknown (warning): AdAttributionKitConfigurations, the
                EligibleForAdAttributionKit... keys and where AttributionCopyEndpoint sits;
              skadnetwork-items-not-array, ad-network-identifiers-not-array, report-endpoint-not-string,
                tracking-description-not-string (errors): a key of the wrong type;
              plist-unreadable, plist-too-large, plist-not-dictionary, plist-key-repeated, plist-unwritable,
                network-ids-unreadable, strings-unreadable (errors): a file that cannot be read or written.
            LOCALIZED files (InfoPlist.strings, from its xx.lproj folder, or InfoPlist.xcstrings) have their
            NSUserTrackingUsageDescription judged the same way.

            add-networks merges ad network IDs into SKAdNetworkItems (or, with --key AdNetworkIdentifiers,
            AdAttributionKit's list, which also takes .adattributionkit IDs), without duplicates, keeping the
            entries there and their order; IDS_FILE is text with one ID per line (# comments allowed) or a property
            list (an array of IDs, or of SKAdNetworkIdentifier dictionaries). IDs are trimmed and lowercased; a
            malformed one stops the merge with nothing written. The file is rewritten atomically in its own format
            (XML or binary); Foundation writes its keys in order and drops comments.
            """,
        exitStatus: """
            0 no error (warnings allowed) or merged, 1 an error found or a file that cannot be read or \
            written, 64 bad usage.
            """,
        run: run
    )

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(UsageError) -> ExitStatus {
        let positionals = arguments.positionals
        switch (positionals.first, positionals.count) {
        case ("check", 2...):
            let localized = Array(positionals.dropFirst(2))
            if let other = localized.first(where: { !$0.hasSuffix(".strings") && !$0.hasSuffix(".xcstrings") }) {
                throw UsageError(
                    message:
                        "'\(other)' is not a localized strings file: check takes one Info.plist, then InfoPlist.strings or .xcstrings files"
                )
            }
            let options = InfoPlistCheck.Options(linksTracking: arguments.has(tracking))
            return check(
                positionals[1], localized: localized, options: options, style: ErrorFormatOption.style(arguments),
                context)
        case ("add-networks", 3):
            let destination = arguments.value(key)
            return addNetworks(positionals[1], from: positionals[2], into: destination, context)
        case ("check", _):
            throw UsageError(message: "check takes one Info.plist")
        case ("add-networks", _):
            throw UsageError(message: "add-networks takes the Info.plist and the file of IDs")
        default:
            throw UsageError(
                message: "say what to do: 'plist check Info.plist' or 'plist add-networks Info.plist IDS'")
        }
    }

    private static func check(
        _ path: String, localized: [String], options: InfoPlistCheck.Options, style: DiagnosticFormatter.Style,
        _ context: CommandContext
    ) -> ExitStatus {
        var found: [(path: String, diagnostics: [Diagnostic])] = []
        // A count is printed after a check, not after a file that could not be read at all.
        var checked = !localized.isEmpty
        do {
            let file = try InfoPlistFile.parse(try read(path, context))
            found.append((path, InfoPlistCheck(file, options: options).diagnostics))
            checked = true
        } catch let error as InputFileError {
            found.append((path, [error.diagnostic]))
        } catch let error as InfoPlistFile.Unreadable {
            found.append((path, [error.diagnostic]))
        } catch {
            found.append((path, [.error(.fileUnreadable, "\(error)", at: nil)]))
        }
        for file in localized {
            do {
                let bytes = try context.contents(
                    of: file, expecting: "a strings file", limit: LocalizedStrings.maximumBytes + 1)
                let entries = try LocalizedStrings.values(of: "NSUserTrackingUsageDescription", in: bytes, path: file)
                found.append((file, InfoPlistCheck.localizedTrackingDescriptions(entries)))
            } catch let error as InputFileError {
                found.append((file, [error.diagnostic]))
            } catch let error as LocalizedStrings.Unreadable {
                found.append((file, [error.diagnostic]))
            } catch {
                found.append((file, [.error(.fileUnreadable, "\(error)", at: nil)]))
            }
        }
        for (file, diagnostics) in found { _ = context.diagnostics(diagnostics, path: file, style: style) }
        let all = found.flatMap(\.diagnostics)
        if checked, style == .text, !all.isEmpty { context.error(all.tally) }
        return all.hasErrors ? .failure : .success
    }

    /// A property list or a list of IDs, within the size the plist reader takes (one byte over, to see "over").
    private static func read(_ path: String, _ context: CommandContext) throws(InputFileError) -> [UInt8] {
        try context.contents(of: path, expecting: "a property list", limit: InfoPlistFile.maximumBytes + 1)
    }

    private static func addNetworks(
        _ path: String, from idsPath: String, into destination: NetworkMerge.Destination, _ context: CommandContext
    ) -> ExitStatus {
        let merge: NetworkMerge
        do {
            let file = try InfoPlistFile.parse(try read(path, context))
            let identifiers: [(identifier: String, line: Int?)]
            do {
                identifiers = try InfoPlistFile.networkIdentifiers(of: try read(idsPath, context))
            } catch let error as InputFileError {
                return context.diagnostics([error.diagnostic], path: error.displayName)
            }
            merge = try NetworkMerge.merge(identifiers, into: file, destination: destination)
        } catch let error as InputFileError {
            return context.diagnostics([error.diagnostic], path: error.displayName)
        } catch let error as InfoPlistFile.Unreadable {
            return context.diagnostics([error.diagnostic], path: path)
        } catch let refusal as NetworkMerge.Refusal {
            // The last problem says that the merge stopped, in the diagnostic format like the problems.
            var ids = refusal.ids
            var plist = refusal.plist
            let stopped = Diagnostic.Note("nothing written to \(path): fix the problems above and run it again")
            if !plist.isEmpty {
                plist[plist.count - 1].notes.append(stopped)
            } else if !ids.isEmpty {
                ids[ids.count - 1].notes.append(stopped)
            }
            _ = context.diagnostics(ids, path: idsPath)
            _ = context.diagnostics(plist, path: path)
            return .failure
        } catch {
            return .failure
        }
        do {
            if merge.added > 0 { try FileOutput.writeIfChanged(data: try merge.file.data(), to: path) }
        } catch let error as FileOutput.WriteError {
            context.diagnostics([error.diagnostic], path: error.path)
            return .failure
        } catch {
            return context.diagnostics(
                [.error(.plistUnwritable, "cannot encode the property list (\(error)); nothing written", at: nil)],
                path: path)
        }
        context.standard(
            "\(path): added \(merge.added) ad network ID\(merge.added == 1 ? "" : "s") to \(destination.rawValue), \(merge.alreadyPresent) already present, \(merge.total) in all"
        )
        return .success
    }
}
