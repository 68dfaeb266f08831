import SkanCore
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
    /// The flags and options both commands take.
    static let flags: Set<String> = ["--no-verify", "--allow-development"]
    static let options: [String: [String]] = ["--threads": [], "--public-key": []]
    /// Their lines in both commands' help.
    static let help = """
          --threads N       Decode on N threads (default: one per processor). The output is the same for any N.
          --no-verify       Do not check signatures (faster; the signature column stays empty).
          --allow-development
                            Count postbacks signed with Apple's AdAttributionKit development keys as ok.
          --public-key KIND=BASE64[,KIND=BASE64...]
                            Also accept keys (base64 DER SubjectPublicKeyInfo): KIND is skadnetwork, or
                            jws:KID or jws-development:KID for an AdAttributionKit key identifier.
        """

    /// The files to read (`-` is standard input).
    var inputs: [String]
    /// The reader's options: threads, verification and the inputs' size.
    var readerOptions: PostbackReader.Options

    /// The run `arguments` ask for; the first positional argument is the schema.
    init(_ arguments: ParsedArguments, command: String) throws(UsageError) {
        var threads: Int? = nil
        if let text = arguments.options["--threads"] {
            guard let count = Int(text), (1...64).contains(count) else {
                throw UsageError(message: "--threads takes a number from 1 to 64, not '\(text)'", command: command)
            }
            threads = count
        }
        inputs = Array(arguments.positionals.dropFirst())
        if inputs.isEmpty { inputs = ["-"] }
        if (arguments.positionals.prefix(1) + inputs).filter({ $0 == "-" }).count > 1 {
            throw UsageError(
                message: "standard input (-) can be read once; name files for the others", command: command)
        }
        var verification: PostbackVerification? = PostbackVerification(
            allowDevelopment: arguments.flags.contains("--allow-development"))
        if arguments.flags.contains("--no-verify") {
            guard !arguments.flags.contains("--allow-development"), arguments.options["--public-key"] == nil else {
                throw UsageError(
                    message: "--no-verify checks no signature; drop --allow-development and --public-key",
                    command: command)
            }
            verification = nil
        }
        if let text = arguments.options["--public-key"] {
            for key in text.split(separator: ",") {
                do {
                    verification?.additionalKeys.append(try PostbackPublicKey(argument: String(key)))
                } catch {
                    throw UsageError(message: error.message, command: command)
                }
            }
        }
        let inputs = self.inputs
        readerOptions = PostbackReader.Options {
            ($0.withFileColumn, $0.threads) = (inputs.count > 1, threads)
            ($0.inputBytes, $0.verification) = (Self.totalSize(of: inputs), verification)
        }
    }

    /// Reads every input through `reader`; false when one could not be read (each reported, the others read).
    func read(into reader: PostbackReader) -> Bool {
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
        return !failed
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

/// Output that is counted, not written: `--summary-only`, and the rows of a report.
final class DiscardedOutput: PostbackOutput {
    func write<Bytes: Collection<UInt8>>(_ bytes: Bytes) {}
}
