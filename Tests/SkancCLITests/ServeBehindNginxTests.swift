import Foundation
import SkanTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `skanc serve` behind real nginx (Debian's package) terminating TLS with a throwaway certificate, as
/// docs/Receiver.md deploys it; curl posts over HTTPS.
@Suite struct ServeBehindNginxTests {
    /// A port free now, for nginx, which cannot listen on port 0 and say which port it got.
    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    @Test func postsOverHTTPSThroughNginxAreStored() throws {
        let nginx = (try? ChildProcess.onPath("nginx")) ?? URL(fileURLWithPath: "/usr/sbin/nginx")
        let directory = try TemporaryDirectory()
        let root = directory.url.path
        let certificate = try CLI.run(
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
                "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost", "-keyout", "\(root)/key.pem",
                "-out", "\(root)/cert.pem",
            ], executable: try ChildProcess.onPath("openssl"))
        try #require(certificate.status == 0, "\(certificate.stderr)")
        let store = directory.url.appendingPathComponent("store")
        let server = try ServeCommandTests.Server(["--data", store.path])
        defer { _ = server.stop() }
        // nginx gets a port found free a moment ago; if another process took it meanwhile, try another.
        var proxy: Process?
        var port = 0
        for _ in 0..<5 {
            port = try Self.freePort()
            let configuration = """
                daemon off;
                master_process off;
                pid \(root)/nginx.pid;
                error_log \(root)/error.log;
                events { worker_connections 64; }
                http {
                    access_log off;
                    client_body_temp_path \(root)/body;
                    proxy_temp_path \(root)/proxy;
                    fastcgi_temp_path \(root)/fastcgi;
                    uwsgi_temp_path \(root)/uwsgi;
                    scgi_temp_path \(root)/scgi;
                    server {
                        listen 127.0.0.1:\(port) ssl;
                        server_name localhost;
                        ssl_certificate \(root)/cert.pem;
                        ssl_certificate_key \(root)/key.pem;
                        client_max_body_size 4k;
                        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
                        location /.well-known/skadnetwork/report-attribution { proxy_pass http://127.0.0.1:\(server.port); }
                        location /.well-known/appattribution/report-attribution { proxy_pass http://127.0.0.1:\(server.port); }
                    }
                }
                """
            try configuration.write(toFile: "\(root)/nginx.conf", atomically: true, encoding: .utf8)
            let process = Process()
            process.executableURL = nginx
            process.arguments = ["-e", "\(root)/error.log", "-c", "\(root)/nginx.conf"]
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Ready when it answers a probe; gone when it could not bind.
            var ready = false
            while process.isRunning, !ready {
                ready =
                    (try? ServeCommandTests.curl(["-k", "-o", "/dev/null", "https://localhost:\(port)/"]))?.status == 0
                if !ready { usleep(20_000) }
            }
            if ready {
                proxy = process
                break
            }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        let running = try #require(
            proxy, "nginx did not start: \((try? String(contentsOfFile: "\(root)/error.log", encoding: .utf8)) ?? "")")
        defer {
            // SIGKILL: nginx keeps the signal mask it inherits, and a test runner's threads block SIGTERM.
            kill(running.processIdentifier, SIGKILL)
            running.waitUntilExit()
        }
        let lines = try String(
            contentsOfFile: CLI.packageRoot.appendingPathComponent("Tests/Fixtures/apple-examples.jsonl").path,
            encoding: .utf8
        ).split(separator: "\n")
        for (index, line) in lines.enumerated() {
            let body = "\(root)/body-\(index).json"
            try String(line).write(toFile: body, atomically: true, encoding: .utf8)
            let path = line.contains("jws-string") ? "appattribution" : "skadnetwork"
            let posted = try ServeCommandTests.curl([
                "--cacert", "\(root)/cert.pem", "-o", "/dev/null", "-w", "%{http_code}", "--data-binary", "@\(body)",
                "https://localhost:\(port)/.well-known/\(path)/report-attribution/",
            ])
            #expect(posted.stdout == "200", "\(posted.stderr)")
        }
        let stored = try ServeCommandTests.segments(store).flatMap {
            try String(contentsOfFile: $0, encoding: .utf8).split(separator: "\n")
        }
        // Apple's development-signed example is stored apart.
        let apart = try ServeCommandTests.segments(store.appendingPathComponent("development")).flatMap {
            try String(contentsOfFile: $0, encoding: .utf8).split(separator: "\n")
        }
        #expect(stored + apart == lines && apart.count == 1)
    }
}
