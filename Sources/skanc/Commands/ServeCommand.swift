import SkanCommandLine
import SkanCore
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
        help: "Serve /healthz, /metrics and /report here only (default: on the public port).")
    static let schema = CommandOption.text(
        "--schema", placeholder: "SCHEMA", repeatable: true,
        help: "The schema (versions live together: repeat it, or A.skan,B.skan) that /report decodes with.")
    static let maxBody = CommandOption.text(
        "--max-body", placeholder: "BYTES", defaultValue: "65536", help: "Larger bodies are answered 413.")
    static let maxConnections = CommandOption.text(
        "--max-connections", placeholder: "N", defaultValue: "1024",
        help: "Connections served at once; more wait to be accepted.")
    static let requestTimeout = CommandOption.text(
        "--request-timeout", placeholder: "SECONDS", defaultValue: "10",
        help: "Time a client has to send a whole request once it starts (then 408).")
    static let instance = CommandOption.text(
        "--instance", placeholder: "NAME",
        help: "Names this receiver's segments apart from other receivers sharing the store (default: the host name).")

    static let command = Command(
        name: "serve",
        summary: "Receive postbacks over HTTP where Apple sends them; answer 200 only once each is on disk.",
        operands: "",
        options: [
            data, listen, adminListen, schema, PostbackRun.publicKey, PostbackRun.allowDevelopment, maxBody,
            maxConnections, requestTimeout, instance,
        ],
        discussion: """
            Receives postbacks on POST /.well-known/skadnetwork/report-attribution/ (SKAdNetwork) and
            /.well-known/appattribution/report-attribution/ (AdAttributionKit), each also without the trailing
            slash; GET there answers that the receiver is up. Each postback is appended to
            DIR/postbacks/YYYY-MM-DD/<instance>-<opened UTC>-<n>.jsonl (one JSON object a line, its receipt time
            on the same line of the .times file beside it) and fsync'ed before the 200 is sent: many postbacks
            share one fsync, none is acknowledged before it. A postback that cannot be made durable is answered
            503, so the device sends it again; a body that is not one JSON object is answered 400 and kept in
            DIR/rejects/. Every stored postback is answered alike, whatever it verifies to. On start, a last
            line torn by a crash is moved to DIR/rejects/ and named on standard error.

            Admin routes: GET /healthz, GET /metrics (Prometheus text: requests, postbacks stored by
            framework, status, signature and duplicates, fsync latency, connections) and, with --schema,
            GET /report?format=markdown|html|json|csv ('skanc report' over the store). The first lines on
            standard output are 'listening on HOST:PORT' (and 'admin on HOST:PORT'). SIGTERM or SIGINT:
            stop accepting, answer what is in flight, exit 0. docs/Receiver.md covers deployment.
            """,
        exitStatus: "0 stopped by SIGTERM or SIGINT, 1 the store or an address cannot be used, 64 bad usage.",
        run: run
    )

    static func run(_ arguments: ParsedArguments) throws(UsageError) -> ExitStatus {
        guard arguments.positionals.isEmpty else {
            throw UsageError(message: "serve takes no operands; name the store with --data DIR", command: "serve")
        }
        guard let directory = arguments[data] else {
            throw UsageError(message: "name the store with --data DIR", command: "serve")
        }
        var configuration = ReceiverConfiguration(data: directory, instance: arguments[instance] ?? hostName())
        guard !configuration.instance.isEmpty,
            configuration.instance.utf8.allSatisfy({ $0.isDigit || $0.isASCIILetter || $0 == 95 || $0 == 45 })
        else {
            throw UsageError(message: "--instance takes letters, digits, '_' and '-'", command: "serve")
        }
        configuration.listen = arguments[listen] ?? configuration.listen
        configuration.adminListen = arguments[adminListen]
        configuration.verification = try PostbackRun.verification(arguments, command: "serve")
        configuration.maxBody = try number(arguments, maxBody, in: 1...(64 << 20))
        configuration.maxConnections = try number(arguments, maxConnections, in: 1...100_000)
        configuration.requestTimeout = Double(try number(arguments, requestTimeout, in: 1...3600))
        for address in [configuration.listen] + (configuration.adminListen.map { [$0] } ?? [])
        where Listener.split(address) == nil {
            throw UsageError(message: "'\(address)' is not HOST:PORT (127.0.0.1:8080, [::1]:0)", command: "serve")
        }
        let schemas = arguments.values(schema)
        if !schemas.isEmpty {
            guard let versions = try SchemaInput.compileVersions(schemas.joined(separator: ","), command: "serve")
            else { return .failure }
            configuration.versions = versions
        }
        let receiver: Receiver
        do {
            receiver = try Receiver(configuration)
        } catch {
            Output.diagnostics([.error(.fileUnwritable, error.description, at: nil)], path: directory)
            return .failure
        }
        for torn in receiver.recovered {
            Output.error(
                "skanc serve: \(torn.segment): a last line torn by a crash (\(torn.bytes) bytes at offset "
                    + "\(torn.offset), never acknowledged) moved to \(torn.rejectPath)")
        }
        Output.standard("listening on \(receiver.publicAddress)")
        if let admin = receiver.adminAddress { Output.standard("admin on \(admin)") }
        receiver.run()
        return .success
    }

    private static func number(
        _ arguments: ParsedArguments, _ option: CommandOption, in range: ClosedRange<Int>
    ) throws(UsageError) -> Int {
        guard let text = arguments[option], let value = Int(text), range.contains(value) else {
            throw UsageError(
                message: "\(option.name) takes a whole number from \(range.lowerBound) to \(range.upperBound)",
                command: "serve")
        }
        return value
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
