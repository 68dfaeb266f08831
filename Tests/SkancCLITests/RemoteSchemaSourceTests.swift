import Foundation
import SkanCompiler
import SkanRemoteSchema
import SkanSchema
import SkanSchemaArtifact
import SkanTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The app's side of schemas over the air, over real HTTP on Linux: `RemoteSchemaSource` with Foundation's
/// URLSession against `skanc serve --schemas` (and a Python server for answers skanc never gives). Every case ends
/// with the right schema in use and an outcome value, nothing thrown: first fetch, 304, a new serial, server down,
/// the wrong key, a replayed older manifest, a tampered artifact, an unknown format, a 10 MB answer, deep JSON and
/// a server slower than the timeout.
@Suite(.serialized) struct RemoteSchemaSourceTests {
    /// A published site served by `skanc serve --schemas`, and sources that fetch from it.
    final class Site {
        let setup: PublishCommandTests.Setup
        var server: ServeCommandTests.Server

        init() throws {
            setup = try PublishCommandTests.Setup()
            #expect(try setup.publish(["Schemas/Shop.skan"]).status == 0)
            server = try ServeCommandTests.Server([
                "--data", setup.directory.url.appendingPathComponent("data").path, "--schemas", setup.out,
            ])
        }

        deinit { if server.process.isRunning { _ = server.stop() } }

        var manifestPath: String { setup.out + "/1234567890/manifest.jws" }

        func publicKeyDER(_ pem: String? = nil) throws -> [UInt8] {
            let text = try String(contentsOfFile: pem ?? setup.publicKey, encoding: .utf8)
            return try #require(RemoteSchemaSource.Configuration.publicKey(pem: text))
        }

        func source(key: [UInt8]? = nil, url: String? = nil, timeout: Double = 10, cache: String? = nil) throws
            -> RemoteSchemaSource
        {
            let bundled = Array(
                try CLI.run(["compile", "Tests/SkanCompilerTests/Fixtures/Evolution/Shop.skan", "--app", "1234567890"])
                    .stdout.utf8)
            var configuration = RemoteSchemaSource.Configuration(
                manifestURL: URL(string: url ?? "\(server.url)/schemas/1234567890/manifest.jws")!,
                appID: "1234567890", publicKey: try key ?? publicKeyDER(), bundledArtifact: bundled,
                cacheDirectory: setup.directory.url.appendingPathComponent(cache ?? "cache-\(UUID().uuidString)"))
            configuration.timeout = timeout
            return RemoteSchemaSource(configuration)
        }
    }

    @Test func fetchesVerifiesAndKeepsTheLastGoodSchema() async throws {
        let site = try Site()
        let source = try site.source(cache: "kept")
        // Before any manifest: the bundled artifact.
        #expect(await source.schema(installID: "a")?.schema.name == "Shop")
        #expect(await source.refresh(force: true) == .updated(serial: 1))
        #expect(await source.schema(installID: "a")?.schema.version == 3)
        // The same manifest again: 304 to its entity tag.
        #expect(await source.refresh(force: true) == .unchanged)
        // Not due: no fetch at all.
        #expect(await source.refresh() == .skipped)
        let first = try Data(contentsOf: URL(fileURLWithPath: site.manifestPath))
        // Version 4 to every install.
        #expect(try site.setup.publish(["Tests/SkanCompilerTests/Fixtures/ShopMarked.skan"]).status == 0)
        #expect(await source.refresh(force: true) == .updated(serial: 2))
        #expect(await source.schema(installID: "a")?.schema.version == 4)
        // A replayed older manifest is refused; version 4 stays.
        try first.write(to: URL(fileURLWithPath: site.manifestPath))
        guard case .refused(let replay) = await source.refresh(force: true) else {
            Issue.record("a replay was taken")
            return
        }
        #expect(replay.contains("a replay"), "\(replay)")
        #expect(await source.schema(installID: "a")?.schema.version == 4)
        // The server down: the fetch fails, version 4 stays; a new source starts from the cache.
        _ = site.server.stop()
        guard case .failed = await source.refresh(force: true) else {
            Issue.record("a fetch from a stopped server did not fail")
            return
        }
        #expect(await source.schema(installID: "a")?.schema.version == 4)
        // The next launch, offline: the cache, verified again, gives version 4 at once.
        let relaunched = try site.source(cache: "kept")
        #expect(await relaunched.schema(installID: "a")?.schema.version == 4)
        #expect(await relaunched.serial == 2)
    }

    @Test func refusesWhatTheKeyDidNotSign() async throws {
        let site = try Site()
        // Another key: refused, the bundled schema stays in use.
        let other = site.setup.directory.url.appendingPathComponent("other.pem").path
        _ = try CLI.run(
            ["openssl", "ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", other],
            executable: URL(fileURLWithPath: "/usr/bin/env"))
        let otherPublic = site.setup.directory.url.appendingPathComponent("other-public.pem").path
        _ = try CLI.run(
            ["openssl", "ec", "-in", other, "-pubout", "-out", otherPublic],
            executable: URL(fileURLWithPath: "/usr/bin/env"))
        let wrong = try site.source(key: try site.publicKeyDER(otherPublic))
        guard case .refused(let reason) = await wrong.refresh(force: true) else {
            Issue.record("a manifest signed with another key was taken")
            return
        }
        #expect(reason.contains("pinned key"), "\(reason)")
        #expect(await wrong.schema(installID: "a")?.schema.name == "Shop")
        let wrongSerial = await wrong.serial
        #expect(wrongSerial == nil)
        // A manifest of a format this reader does not know, signed with the right key: refused, not guessed at.
        let resign = """
            import base64, sys
            from cryptography.hazmat.primitives import hashes, serialization
            from cryptography.hazmat.primitives.asymmetric import ec, utils
            encode = lambda data: base64.urlsafe_b64encode(data).rstrip(b"=").decode()
            header, payload, _ = open(sys.argv[1]).read().strip().split(".")
            body = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)).replace(b'"format":1', b'"format":2')
            key = serialization.load_pem_private_key(open(sys.argv[2], "rb").read(), None)
            signing_input = header + "." + encode(body)
            r, s = utils.decode_dss_signature(key.sign(signing_input.encode(), ec.ECDSA(hashes.SHA256())))
            open(sys.argv[1], "w").write(signing_input + "." + encode(r.to_bytes(32, "big") + s.to_bytes(32, "big")))
            """
        let original = try Data(contentsOf: URL(fileURLWithPath: site.manifestPath))
        let signed = try WarehouseSQLTests.python(["-c", resign, site.manifestPath, site.setup.key])
        #expect(signed.status == 0, "\(signed.stderr)")
        let future = try site.source()
        guard case .refused(let format) = await future.refresh(force: true) else {
            Issue.record("a manifest of format 2 was taken")
            return
        }
        #expect(format.contains("format 2"), "\(format)")
        try original.write(to: URL(fileURLWithPath: site.manifestPath))
        // A tampered artifact: the manifest verifies, the artifact is not the one it names.
        let folder = site.setup.out + "/1234567890/schemas"
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).first)
        let path = folder + "/" + name
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(of: "\"otherwise\"", with: "\"otherwize\"").write(
            toFile: path, atomically: true, encoding: .utf8)
        let tampered = try site.source()
        guard case .refused(let artifact) = await tampered.refresh(force: true) else {
            Issue.record("a tampered artifact was taken")
            return
        }
        #expect(artifact.contains("artifact"), "\(artifact)")
        let tamperedSerial = await tampered.serial
        #expect(tamperedSerial == nil)
    }

    @Test func hostileAnswersEndInAnOutcome() async throws {
        let site = try Site()
        let script = """
            import http.server, socketserver, sys, time
            class Handler(http.server.BaseHTTPRequestHandler):
                def do_GET(self):
                    if self.path.startswith("/slow"):
                        time.sleep(5)
                    body = {"/big": b"a" * (10 << 20), "/deep": b"[" * 100000}.get(self.path, b"x.y.z")
                    self.send_response(200)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    try:
                        self.wfile.write(body)
                    except OSError:
                        pass
                def log_message(self, *args):
                    pass
            server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
            print(server.server_address[1], flush=True)
            server.serve_forever()
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        let output = Pipe()
        process.standardOutput = output
        // Nothing of the test run's own: a server that outlived the test would hold swift-test's pipes open.
        process.standardInput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // SIGKILL: the server keeps the signal mask it inherits, and a test runner's threads block SIGTERM.
        defer {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let port = try #require(Int(ServeCommandTests.Server.line(output.fileHandleForReading)))
        // A generous deadline where the answer itself is the problem (a busy machine is no slow server); 1 s for
        // the server that sleeps 5 s.
        for (path, expected, timeout) in [("/big", "more than", 60.0), ("/deep", "JWS", 60), ("/slow", "within 1", 1)] {
            let source = try site.source(url: "http://127.0.0.1:\(port)\(path)", timeout: timeout)
            let outcome = await source.refresh(force: true)
            switch outcome {
            case .failed(let reason), .refused(let reason):
                #expect(reason.contains(expected), "\(path): \(reason)")
            default: Issue.record("\(path): \(outcome)")
            }
            #expect(await source.schema(installID: "a")?.schema.name == "Shop", "\(path)")
        }
    }

    /// 10% is 10% +- 1% of 100,000 installs, and an install inside 10% stays inside 50%.
    @Test func rolloutSharesHoldOverManyInstalls() {
        var inside = 0
        for index in 0..<100_000 {
            let id = "install-\(index)"
            if RolloutBucket.isInside(installID: id, percent: 10) {
                inside += 1
                #expect(RolloutBucket.isInside(installID: id, percent: 50))
            }
        }
        #expect((9_000...11_000).contains(inside), "\(inside)")
    }
}
