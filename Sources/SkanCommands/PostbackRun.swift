import SkanCommandLine
import SkanCore
import SkanFiles
import SkanPostbacks

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What `postbacks` and `report` share: the options that say how postbacks are read and verified, and reading
/// the named files (or standard input) through one reader, each file that cannot be read reported and skipped.
struct PostbackRun {
    static let threads = IntegerOption(
        "--threads", placeholder: "N", range: 1...64,
        help: "Decode on N threads (default: one per processor). The output is the same for any N.")
    static let noVerify = CommandOption.flag(
        "--no-verify", help: "Do not check signatures (faster; the signature column stays empty).")
    static let allowDevelopment = CommandOption.flag(
        "--allow-development", help: "Count postbacks signed with Apple's AdAttributionKit development keys as ok.")
    static let publicKey = ListOption<PostbackPublicKey>(
        "--public-key", placeholder: "KIND=BASE64[,KIND=BASE64...]", items: "KIND=BASE64 keys",
        help: "Also accept keys (base64 DER SubjectPublicKeyInfo): KIND is skadnetwork, or jws:KID or "
            + "jws-development:KID for an AdAttributionKit key identifier."
    ) { item in
        do throws(PostbackPublicKey.ArgumentError) {
            return .success(try PostbackPublicKey(argument: item))
        } catch {
            return .failure(ListItemRefusal(error.message))
        }
    }
    /// The options both commands take, in their help's order.
    static let options: [any OptionDeclaration] = [SchemaInput.schemas, threads, noVerify, allowDevelopment, publicKey]

    /// The files to read (`-` is standard input).
    var inputs: [String]
    /// The reader's options: threads, verification and the inputs' size.
    var readerOptions: PostbackReader.Options

    /// The run `arguments` ask for; the first positional argument is the schema.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        let threads = arguments[Self.threads]
        // With `--schemas`, every operand is a file to read; else the first is the schema.
        let schemaOperands = arguments.has(SchemaInput.schemas) ? 0 : 1
        inputs = Array(arguments.positionals.dropFirst(schemaOperands))
        if inputs.isEmpty { inputs = ["-"] }
        if (arguments.positionals.prefix(schemaOperands) + inputs).filter({ $0 == "-" }).count > 1 {
            throw UsageError(
                message: "standard input (-) can be read once; name files for the others")
        }
        let verification = try Self.verification(arguments)
        let inputs = self.inputs
        let withReceipts = inputs.contains { Self.receiptTimesPath(of: $0) != nil }
        readerOptions = PostbackReader.Options {
            ($0.withFileColumn, $0.withReceiptColumn, $0.threads) = (inputs.count > 1, withReceipts, threads)
            ($0.inputBytes, $0.verification) = (Self.totalSize(of: inputs), verification)
        }
    }

    /// The verification `arguments` ask for (nil with `--no-verify`): Apple's keys, development keys with
    /// `--allow-development`, and `--public-key`'s. Shared by `postbacks`, `report` and `serve`.
    static func verification(_ arguments: ParsedArguments) throws(UsageError) -> PostbackVerification? {
        var verification: PostbackVerification? = PostbackVerification(
            allowDevelopment: arguments.has(Self.allowDevelopment))
        if arguments.has(Self.noVerify) {
            guard !arguments.has(Self.allowDevelopment), !arguments.has(Self.publicKey) else {
                throw UsageError(
                    message: "--no-verify checks no signature; drop --allow-development and --public-key")
            }
            verification = nil
        }
        if let keys = try arguments.items(Self.publicKey) { verification?.additionalKeys += keys }
        return verification
    }

    /// Reads every input through `reader`; false when one could not be read (each reported, the others read).
    func read(into reader: PostbackReader, _ context: CommandContext) -> Bool {
        var failed = false
        for input in inputs {
            do throws(InputFileError) {
                let file = try context.open(input, expecting: "a file of postbacks (JSON lines)")
                let wanted = readerOptions.withReceiptColumn ? Self.receiptTimesPath(of: input) : nil
                let receipts = try wanted.map { path throws(InputFileError) in
                    // Read whole (a part would end in a cut time, read as a wrong one), from a regular file only.
                    let times = try context.open(path, expecting: "receipt times", regularOnly: true)
                    guard (times.regularFileSize ?? 0) <= Self.receiptTimesLimit else {
                        throw InputFileError(
                            path: path,
                            reason: "holds more than \(Self.receiptTimesLimit >> 20) MiB of receipt times, more than "
                                + "any segment has; is it the .times file skanc serve wrote?")
                    }
                    return ReceiptTimes(try times.contents())
                }
                var bytes = FileDescriptorInput(descriptor: file.descriptor)
                let before = reader.summary.read
                do {
                    try reader.read(&bytes, name: file.displayName, receipts: receipts)
                } catch {
                    throw InputFileError(path: input, reason: "reading stopped (\(error)); the rows above were written")
                }
                if let receipts, let path = wanted {
                    context.diagnostics(receipts.diagnostics(lines: reader.summary.read - before), path: path)
                }
            } catch {
                context.diagnostics([error.diagnostic], path: error.displayName)
                failed = true
            }
        }
        return !failed
    }

    /// Every file the run reads, with how a message names it: each postbacks file, and the receipt times beside
    /// it (which only `skanc serve` can write: an output must never replace them).
    var readFiles: [(path: String, role: String)] {
        inputs.flatMap { input in
            [(input, "a postbacks file it reads")]
                + (Self.receiptTimesPath(of: input).map { [($0, "the receipt times of \(input), which it reads")] }
                    ?? [])
        }
    }

    /// The largest `.times` file read: 13 bytes a line for 10 million lines, past what a 64 MiB segment holds.
    static let receiptTimesLimit = 128 << 20

    /// The receipt times beside the input at `path` (`skanc serve` keeps them in `NAME.times` beside each
    /// `NAME.jsonl` segment), when there is such a file.
    static func receiptTimesPath(of path: String) -> String? {
        // Anything named so (a symbolic link that loops or dangles included) is the sidecar: opening it then
        // says what is wrong, rather than the times being left out in silence.
        var status = stat()
        guard path != "-", let times = ReceiptTimes.path(besides: path), lstat(times, &status) == 0 else { return nil }
        return times
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

/// Output that is counted, not written: `--summary-only`, and the rows of a report.
final class DiscardedOutput: PostbackOutput {
    func write<Bytes: Collection<UInt8>>(_ bytes: Bytes) {}
}
