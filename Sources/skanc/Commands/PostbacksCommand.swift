import SkanCore
import SkanPostbacks

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `skanc postbacks SCHEMA[,SCHEMA...] [FILE...]`: one output row per non-blank postback line, always.
enum PostbacksCommand {
    static let command = Command(
        name: "postbacks",
        summary: "Decode postback files (SKAdNetwork, AdAttributionKit JSON lines), one row per line.",
        flags: ["--summary", "--summary-only", "--no-verify", "--allow-development"],
        options: [
            "--format": PostbackFormat.allCases.map(\.rawValue), "--threads": [], "--public-key": [],
        ],
        help: """
            USAGE: skanc postbacks SCHEMA[,SCHEMA...] [FILE...] [--format csv|jsonl] [--summary | --summary-only] [--threads N]
                                      [--no-verify | --allow-development] [--public-key KIND=BASE64]

            Decodes postbacks, one JSON object per line (SKAdNetwork 1.0-4.0 and AdAttributionKit), checks them
            against Apple's rules for their version and decodes their values with the schema's exact semantics.
            Reads standard input when no FILE (or -) is given. Every non-blank line gets one output row:
            \(columnList)
            With several files, a first column names the file. Status codes, rules and columns are documented
            in docs/Postbacks.md.

            Several schemas, separated by commas, are versions live together ('skanc check --live-together'
            proves them apart): each fine value is decoded with the version it belongs to, in a schema_version
            column before the fields of every version; a value valid in several is ambiguous-version.

            OPTIONS:
              --format FORMAT   csv (default; RFC 4180 with CRLF, spreadsheet-safe) or jsonl (one JSON object per row).
              --summary         Also print counts to standard error: lines, ok, each problem, duplicates, cases,
                                coarse values per window, postbacks without a value by privacy tier.
              --summary-only    Print only the summary, to standard output.
              --threads N       Decode on N threads (default: one per processor). The output is the same for any N.
              --no-verify       Do not check signatures (faster; the signature column stays empty).
              --allow-development
                                Count postbacks signed with Apple's AdAttributionKit development keys as ok.
              --public-key KIND=BASE64[,KIND=BASE64...]
                                Also accept keys (base64 DER SubjectPublicKeyInfo): KIND is skadnetwork, or
                                jws:KID or jws-development:KID for an AdAttributionKit key identifier.
              -h, --help        Show this help.

            EXIT STATUS: 0 every line ok, 1 some line has a problem (or a file cannot be read, or a schema
            error), 64 bad usage.
            """,
        run: run
    )

    /// The columns as the help lists them, wrapped to the help's width; from `PostbackColumn`.
    static var columnList: String {
        let names = PostbackColumn.beforeFields.filter { $0 != .file }.map {
            $0 == .schemaVersion ? "schema_version (with several schemas)" : $0.name
        }
        let items = names + ["one column per schema field"] + PostbackColumn.afterFields.map(\.name)
        var lines: [String] = []
        var current = ""
        for (index, item) in items.enumerated() {
            let piece = item + (index == items.count - 1 ? "." : ",")
            if !current.isEmpty, current.count + 1 + piece.count > 100 {
                lines.append(current)
                current = piece
            } else {
                current += (current.isEmpty ? "" : " ") + piece
            }
        }
        lines.append(current)
        return lines.joined(separator: "\n")
    }

    static func run(_ arguments: ParsedArguments) throws(UsageError) -> ExitStatus {
        guard let schemaPath = arguments.positionals.first else {
            throw UsageError(message: "name the schema to decode postbacks with", command: "postbacks")
        }
        if arguments.flags.contains("--summary"), arguments.flags.contains("--summary-only") {
            throw UsageError(message: "use --summary or --summary-only, not both", command: "postbacks")
        }
        var threads: Int? = nil
        if let text = arguments.options["--threads"] {
            guard let count = Int(text), (1...64).contains(count) else {
                throw UsageError(message: "--threads takes a number from 1 to 64, not '\(text)'", command: "postbacks")
            }
            threads = count
        }
        var inputs = Array(arguments.positionals.dropFirst())
        if inputs.isEmpty { inputs = ["-"] }
        if ([schemaPath] + inputs).filter({ $0 == "-" }).count > 1 {
            throw UsageError(
                message: "standard input (-) can be read once; name files for the others", command: "postbacks")
        }
        var verification: PostbackVerification? = PostbackVerification(
            allowDevelopment: arguments.flags.contains("--allow-development"))
        if arguments.flags.contains("--no-verify") {
            guard !arguments.flags.contains("--allow-development"), arguments.options["--public-key"] == nil else {
                throw UsageError(
                    message: "--no-verify checks no signature; drop --allow-development and --public-key",
                    command: "postbacks")
            }
            verification = nil
        }
        if let text = arguments.options["--public-key"] {
            for key in text.split(separator: ",") {
                verification?.additionalKeys.append(try Self.publicKey(String(key)))
            }
        }
        guard let versions = try SchemaInput.compileVersions(schemaPath, command: "postbacks") else { return .failure }
        let summaryOnly = arguments.flags.contains("--summary-only")
        let format = arguments.options["--format"].flatMap(PostbackFormat.init(rawValue:)) ?? .csv
        let output: any PostbackOutput =
            summaryOnly ? DiscardedOutput() : Output.standardOutput
        let options = PostbackReader.Options {
            ($0.format, $0.withFileColumn, $0.threads) = (format, inputs.count > 1, threads)
            ($0.inputBytes, $0.verification) = (Self.totalSize(of: inputs), verification)
        }
        let reader = PostbackReader(versions: versions, options: options, output: output)
        reader.writeHeader()
        var failed = false
        for input in inputs {
            if input != "-", Self.isDirectory(input) {
                Output.diagnostics(
                    [.error(.fileUnreadable, "is a directory; name a file of postbacks (JSON lines)", at: nil)],
                    path: input)
                failed = true
                continue
            }
            let descriptor = input == "-" ? STDIN_FILENO : open(input, O_RDONLY)
            guard descriptor >= 0 else {
                let reason = String(cString: strerror(errno))
                Output.diagnostics(
                    [.error(.fileUnreadable, "cannot open the file (\(reason)); check the path", at: nil)], path: input)
                failed = true
                continue
            }
            var bytes = FileDescriptorInput(descriptor: descriptor)
            do {
                try reader.read(&bytes, name: input == "-" ? "<stdin>" : input)
            } catch {
                Output.diagnostics(
                    [.error(.fileUnreadable, "reading stopped (\(error)); the rows above were written", at: nil)],
                    path: input)
                failed = true
            }
            if descriptor != STDIN_FILENO { close(descriptor) }
        }
        if summaryOnly {
            Output.standard(reader.summary.text, terminator: "")
        } else if arguments.flags.contains("--summary") {
            Output.error(reader.summary.text, terminator: "")
        }
        return failed || reader.summary.ok != reader.summary.read ? .failure : .success
    }

    /// A `--public-key` argument.
    static func publicKey(_ text: String) throws(UsageError) -> PostbackPublicKey {
        do {
            return try PostbackPublicKey(argument: text)
        } catch {
            throw UsageError(message: error.message, command: "postbacks")
        }
    }

    static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    /// The inputs' total size when every one is a regular file (files that cannot be read count nothing
    /// here and are reported when opened); nil when one is standard input, a pipe or a device.
    static func totalSize(of inputs: [String]) -> Int? {
        var total = 0
        for input in inputs {
            guard input != "-" else { return nil }
            var status = stat()
            guard stat(input, &status) == 0 else { continue }
            guard status.st_mode & S_IFMT == S_IFREG else { return nil }
            total += Int(status.st_size)
        }
        return total
    }
}

/// The output of `--summary-only`: rows are counted, not written.
private final class DiscardedOutput: PostbackOutput {
    func write<Bytes: Collection<UInt8>>(_ bytes: Bytes) {}
}
