import Foundation
import SkanCommandLine
import SkanCore
import SkanFiles
import SkanReceiver

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `skanc serve --data DIR`: receives postbacks where Apple sends them; a 200 only once each is durable.
enum ServeCommand {
    static let data = CommandOption.text(
        "--data", placeholder: "DIR", help: "The store: postbacks/, rejects/ (created when missing; required).")
    static let listen = CommandOption.text(
        "--listen", placeholder: "HOST:PORT", defaultValue: "127.0.0.1:8080",
        help: "Where postbacks arrive (TLS ends at a proxy in front); port 0 picks a free port.")
    static let adminListen = CommandOption.text(
        "--admin-listen", placeholder: "HOST:PORT",
        help: "Serve /healthz, /metrics and /report here (never on the public port; without it, not at all).")
    static let schema = CommandOption.text(
        "--schema", placeholder: "SCHEMA", repeatable: true,
        help: "The schema (versions live together: repeat it, or A.skan,B.skan) that /report decodes with.")
    static let schemas = CommandOption.text(
        "--schemas", placeholder: "DIR",
        help: "Serve the folder 'skanc publish' writes at GET /schemas/APP_ID/manifest.jws and "
            + "/schemas/APP_ID/schemas/SHA256.json, with ETag and Cache-Control, on the public port; without "
            + "--schema, /report reports each app with the versions published there at start.")
    static let adminToken = CommandOption.text(
        "--admin-token", placeholder: "FILE",
        help: "A file holding a token the admin routes require as 'Authorization: Bearer TOKEN' (else 401).")
    static let forward = CommandOption.text(
        "--forward", placeholder: "NAME=URL", repeatable: true,
        help: "Send every postback stored from now on to http://HOST:PORT[/PREFIX] too, at least once (repeatable).")
    static let forwardFilter = CommandOption.text(
        "--forward-filter", placeholder: "NAME=ad-network-id:ID,...", repeatable: true,
        help: "Forward to NAME only the postbacks of these ad networks.")
    static let forwardDevelopment = CommandOption.flag(
        "--forward-development", help: "Forward postbacks signed with Apple's development keys too.")
    /// The receiver's own defaults, which the options below state.
    private static let defaults = ReceiverConfiguration(data: "", instance: "")

    static let forwardTimeout = IntegerOption(
        "--forward-timeout", placeholder: "SECONDS", range: 1...3600, default: Int(defaults.forwardTimeout),
        help: "Time a destination has to accept a connection and to answer a postback (then it is tried again).")
    static let unverifiedQuota = IntegerOption(
        "--unverified-quota", placeholder: "N", range: 0...100_000_000, default: defaults.unverifiedQuota?.perKey,
        help: "Stored postbacks of one ad network and app that may fail verification in an hour; past it, such "
            + "postbacks are verified before they are stored (0: no quota).")
    static let unverifiedTotal = IntegerOption(
        "--unverified-total", placeholder: "N", range: 1...100_000_000, default: defaults.unverifiedQuota?.total,
        help: "The same for all postbacks together: past it, every postback is verified before it is stored.")
    static let maxBody = IntegerOption(
        "--max-body", placeholder: "BYTES", range: 1...(64 << 20), default: defaults.maxBody,
        help: "Larger bodies are answered 413 (real postbacks are under 1 KiB).")
    static let maxConnections = IntegerOption(
        "--max-connections", placeholder: "N", range: 1...100_000, default: defaults.maxConnections,
        help: "Connections served at once; more wait to be accepted.")
    static let maxConnectionsPerClient = IntegerOption(
        "--max-connections-per-client", placeholder: "N", range: 1...100_000,
        default: defaults.clientLimits.connectionsPerClient,
        help: "Connections one client address may hold at once; more are closed at once (trusted proxies: no cap).")
    static let rateLimit = IntegerOption(
        "--rate-limit", placeholder: "N", range: 0...1_000_000, default: Int(defaults.clientLimits.requestsPerSecond),
        help: "Requests a second one client address may average on the public port, in bursts of 2N; more get 429 "
            + "(0: no limit).")
    static let trustedProxy = CommandOption.text(
        "--trusted-proxy", placeholder: "ADDRESS", repeatable: true,
        help: "A proxy whose X-Forwarded-For names the client (default: 127.0.0.1 and ::1; 'none': no proxy).")
    static let requestTimeout = IntegerOption(
        "--request-timeout", placeholder: "SECONDS", range: 1...3600, default: Int(defaults.requestTimeout),
        help: "Time a client has to send a whole request once it starts (then 408).")
    static let instance = CommandOption.text(
        "--instance", placeholder: "NAME",
        help: "Names this receiver's segments apart from other receivers sharing the store (default: the host name).")

    static let command = Command(
        name: "serve",
        summary: "Receive postbacks over HTTP where Apple sends them; answer 200 only once each is on disk.",
        operands: "",
        options: [
            data, listen, adminListen, adminToken, forward, forwardFilter, forwardDevelopment, forwardTimeout,
            schema, schemas, PostbackRun.publicKey, PostbackRun.allowDevelopment, maxBody,
            unverifiedQuota, unverifiedTotal, maxConnections, maxConnectionsPerClient, rateLimit, trustedProxy,
            requestTimeout, instance,
        ],
        discussion: """
            Receives postbacks on POST /.well-known/skadnetwork/report-attribution/ (SKAdNetwork) and
            /.well-known/appattribution/report-attribution/ (AdAttributionKit), each also without the trailing
            slash; GET there answers that the receiver is up. Each postback is appended to
            DIR/postbacks/YYYY-MM-DD/<instance>-<opened UTC>-<n>.jsonl (one JSON object a line, its receipt time
            on the same line of the .times file beside it) and fsync'ed before the 200 is sent: many postbacks
            share one fsync, none is acknowledged before it. A postback that cannot be made durable is answered
            503, so the device sends it again. A body not shaped like a postback (not UTF-8 JSON, no version
            Apple used, a required field missing or mistyped) is answered 400 with the reason and kept nowhere.
            Every stored postback is answered alike, whatever it verifies to. On start, a last line torn by a
            crash is moved to DIR/rejects/ and named on standard error.

            Admin routes, on --admin-listen only: GET /healthz, GET /metrics (Prometheus text: requests,
            postbacks stored by framework, status, signature and duplicates, bodies refused by reason, fsync
            latency, connections) and, with --schema, GET /report?format=markdown|html|json|csv ('skanc report'
            over the store, from the counts kept at intake). The first lines on standard output are 'listening on
            HOST:PORT' (and 'admin on HOST:PORT'). SIGTERM or SIGINT: stop accepting, answer what is in flight,
            exit 0. docs/Receiver.md covers deployment and the limits per client.
            """,
        exitStatus:
            "0 stopped by SIGTERM or SIGINT, 1 the store, an address or the descriptor limit cannot be used (or "
            + "serving failed), 64 bad usage.",
        run: run
    )

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(UsageError) -> ExitStatus {
        guard arguments.positionals.isEmpty else {
            throw UsageError(message: "serve takes no operands; name the store with --data DIR")
        }
        guard let directory = arguments[data], !directory.isEmpty else {
            throw UsageError(message: "name the store with --data DIR")
        }
        var configuration = ReceiverConfiguration(data: directory, instance: arguments[instance] ?? hostName())
        guard !configuration.instance.isEmpty,
            configuration.instance.utf8.allSatisfy({ $0.isDigit || $0.isASCIILetter || $0 == 95 || $0 == 45 })
        else {
            throw UsageError(message: "--instance takes letters, digits, '_' and '-'")
        }
        configuration.listen = arguments[listen] ?? configuration.listen
        configuration.adminListen = arguments[adminListen]
        do throws(ForwardDestination.Failure) {
            for argument in arguments.values(forward) {
                let destination = try ForwardDestination(argument: argument)
                guard !configuration.forwards.contains(where: { $0.name == destination.name }) else {
                    throw ForwardDestination.Failure(description: "--forward \(destination.name) is given twice")
                }
                configuration.forwards.append(destination)
            }
            for argument in arguments.values(forwardFilter) {
                try ForwardDestination.applyFilter(argument, to: &configuration.forwards)
            }
        } catch {
            throw UsageError(message: error.description)
        }
        configuration.forwardsDevelopment = arguments.has(forwardDevelopment)
        configuration.forwardTimeout = Double(number(arguments, forwardTimeout))
        let perKey = number(arguments, unverifiedQuota)
        if perKey == 0 {
            configuration.unverifiedQuota = nil
        } else {
            configuration.unverifiedQuota?.perKey = perKey
            configuration.unverifiedQuota?.total = number(arguments, unverifiedTotal)
        }
        if let path = arguments[adminToken] {
            configuration.adminToken = try token(path, context)
        }
        configuration.verification = try PostbackRun.verification(arguments)
        configuration.maxBody = number(arguments, maxBody)
        configuration.maxConnections = number(arguments, maxConnections)
        configuration.requestTimeout = Double(number(arguments, requestTimeout))
        configuration.clientLimits.connectionsPerClient = number(arguments, maxConnectionsPerClient)
        let rate = number(arguments, rateLimit)
        configuration.clientLimits.requestsPerSecond = Double(rate)
        configuration.clientLimits.burst = Double(2 * rate)
        let proxies = arguments.values(trustedProxy)
        if !proxies.isEmpty {
            configuration.clientLimits.trustedProxies = []
            for proxy in proxies where proxy != "none" {
                guard let proxy = Listener.canonicalAddress(proxy) else {
                    throw UsageError(
                        message: "--trusted-proxy takes an IP address as the proxy connects from (127.0.0.1, ::1), "
                            + "or 'none'; '\(proxy)' is not one")
                }
                configuration.clientLimits.trustedProxies.insert(proxy)
            }
        }
        for address in [configuration.listen] + (configuration.adminListen.map { [$0] } ?? [])
        where Listener.split(address) == nil {
            throw UsageError(message: "'\(address)' is not HOST:PORT (127.0.0.1:8080, [::1]:0)")
        }
        let named = arguments.values(schema)
        if !named.isEmpty {
            guard
                let versions = try SchemaInput.compileVersions(named.joined(separator: ","), context)
            else { return .failure }
            configuration.versions = versions
        }
        if let folder = arguments[schemas] {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
                throw UsageError(
                    message: "--schemas names the folder 'skanc publish --to' writes; '\(folder)' is not a folder")
            }
            configuration.schemas = folder
            // Without --schema, /report decodes with what is published there (read once, at start).
            if named.isEmpty, SchemaInput.holdsManyApps(folder) {
                guard let catalog = try SchemaInput.compileCatalog(folder, context) else {
                    return .failure
                }
                configuration.catalog = catalog
            }
        }
        let receiver: Receiver
        do {
            receiver = try Receiver(configuration)
        } catch {
            if error.kind == .store {
                context.diagnostics([.error(.fileUnwritable, error.description, at: nil)], path: directory)
            } else {
                context.error("skanc serve: error: \(error.description)")
            }
            return .failure
        }
        receiver.installSignalHandlers()
        for path in receiver.skippedFiles {
            context.error("skanc serve: warning: \(path) is not a regular file: left alone, not read as a segment")
        }
        for torn in receiver.recovered {
            context.error(
                "skanc serve: \(torn.segment): a last line torn by a crash (\(torn.bytes) bytes at offset "
                    + "\(torn.offset), never acknowledged) moved to \(torn.rejectPath)")
        }
        context.standard("listening on \(receiver.publicAddress)")
        if let admin = receiver.adminAddress { context.standard("admin on \(admin)") }
        if let failure = receiver.run() {
            context.error("skanc serve: error: \(failure.description)")
            return .failure
        }
        return .success
    }

    /// The token in `path`: its first line, at least 16 bytes of printable ASCII.
    private static func token(_ path: String, _ context: CommandContext) throws(UsageError) -> [UInt8] {
        let bytes: [UInt8]
        do {
            bytes = try context.contents(of: path, expecting: "a token file", limit: 4096)
        } catch {
            throw UsageError(message: "--admin-token: \(error.reason)")
        }
        let line = Array(bytes.prefix { $0 != 10 && $0 != 13 })
        guard line.count >= 16, line.count < 4096, line.allSatisfy({ $0 > 32 && $0 < 127 }) else {
            throw UsageError(
                message:
                    "--admin-token \(path) must hold a token of at least 16 printable characters on its first line "
                    + "(openssl rand -hex 32 > \(path) makes one)")
        }
        return line
    }

    /// The option's number: checked against its range when the command line was read, and defaulted.
    private static func number(_ arguments: ParsedArguments, _ option: IntegerOption) -> Int {
        arguments[option]!
    }

    /// The host name, as an instance name: letters, digits and `-` kept, anything else `-`.
    private static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        gethostname(&buffer, buffer.count - 1)
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        let name = String(decoding: bytes, as: UTF8.self).map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "-" }
        return name.isEmpty ? "receiver" : String(name)
    }
}
