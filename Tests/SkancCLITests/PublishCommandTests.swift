import Foundation
import SkanTestSupport
import Testing

/// `skanc publish`: a signed manifest and content-addressed artifacts in a folder; the gate refuses each unsafe
/// change with its diagnostic and writes nothing; rollouts, rollbacks and revocations each make a new serial; the
/// manifest verifies with OpenSSL's ES256 through Python's `cryptography` (an outside verifier), whichever signer
/// made it.
@Suite struct PublishCommandTests {
    /// A scratch folder with a fresh P-256 key pair (openssl), and the options every publish takes.
    final class Setup {
        let directory: TemporaryDirectory
        let key: String
        let publicKey: String
        let out: String

        init() throws {
            directory = try TemporaryDirectory()
            key = directory.url.appendingPathComponent("key.pem").path
            publicKey = directory.url.appendingPathComponent("public.pem").path
            out = directory.url.appendingPathComponent("site").path
            for command in [
                ["openssl", "ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", key],
                ["openssl", "ec", "-in", key, "-pubout", "-out", publicKey],
            ] {
                let made = try CLI.run(command, executable: URL(fileURLWithPath: "/usr/bin/env"))
                try #require(made.status == 0, "\(made.stderr)")
            }
        }

        func publish(_ arguments: [String], key: String? = nil, app: String = "1234567890") throws -> CLIResult {
            try CLI.run(["publish"] + arguments + ["--app", app, "--to", out, "--key", key ?? self.key])
        }

        func status() throws -> [String: Any] {
            let result = try CLI.run([
                "publish", "status", "--app", "1234567890", "--from", out, "--key", publicKey, "--format", "json",
            ])
            #expect(result.status == 0, "\(result.stderr)")
            return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        }

        /// Every file under the site and its bytes: what a refused publish must leave as it was.
        func snapshot() throws -> [String: Data] {
            var files: [String: Data] = [:]
            let root = URL(fileURLWithPath: out)
            guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else {
                return files
            }
            for case let url as URL in walker where !url.hasDirectoryPath {
                files[url.path] = try Data(contentsOf: url)
            }
            return files
        }

        /// Whether Python's `cryptography` verifies the manifest's ES256 signature with the public key.
        func verifiedOutside() throws -> Bool {
            let script = """
                import base64, sys
                from cryptography.hazmat.primitives import hashes, serialization
                from cryptography.hazmat.primitives.asymmetric import ec, utils
                header, payload, signature = open(sys.argv[1]).read().strip().split(".")
                raw = base64.urlsafe_b64decode(signature + "=" * (-len(signature) % 4))
                der = utils.encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
                key = serialization.load_pem_public_key(open(sys.argv[2], "rb").read())
                key.verify(der, (header + "." + payload).encode(), ec.ECDSA(hashes.SHA256()))
                print("verified")
                """
            let result = try WarehouseSQLTests.python(["-c", script, out + "/1234567890/manifest.jws", publicKey])
            return result.status == 0 && result.stdout.contains("verified")
        }
    }

    @Test func publishesRollsOutRollsBackAndRevokes() throws {
        let setup = try Setup()
        let first = try setup.publish(["Schemas/Shop.skan"])
        #expect(first.status == 0 && first.stderr.contains("version 3 is live"), "\(first.stderr)")
        #expect(try setup.verifiedOutside())
        var status = try setup.status()
        #expect(
            status["live"] as? Int == 3 && status["serial"] as? Int == 1
                && status["signature_verified"] as? Bool == true)
        // The artifact is named by the SHA-256 of its bytes, and is what `skanc compile` writes.
        let versions = try #require(status["versions"] as? [[String: Any]])
        let name = try #require(versions.first?["artifact"] as? String)
        let artifact = try Data(contentsOf: URL(fileURLWithPath: "\(setup.out)/1234567890/schemas/\(name).json"))
        #expect(
            String(decoding: artifact, as: UTF8.self)
                == (try CLI.run(["compile", "Schemas/Shop.skan", "--app", "1234567890"])).stdout)

        let marked = try setup.publish(["Tests/SkanCompilerTests/Fixtures/ShopMarked.skan", "--rollout", "10"])
        #expect(marked.status == 0, "\(marked.stderr)")
        status = try setup.status()
        #expect((status["rollout"] as? [String: Int]) == ["version": 4, "percent": 10], "\(status)")
        #expect(try setup.publish(["--rollout", "100"]).status == 0)
        status = try setup.status()
        #expect(status["live"] as? Int == 4 && status["rollout"] is NSNull && status["serial"] as? Int == 3)
        #expect(try setup.publish(["--rollback"]).status == 0)
        #expect(try setup.status()["live"] as? Int == 3)
        #expect(try setup.publish(["--revoke", "4"]).status == 0)
        status = try setup.status()
        #expect(status["revoked"] as? [Int] == [4] && status["serial"] as? Int == 5, "\(status)")
        #expect(try setup.verifiedOutside())
    }

    @Test func theGateRefusesAndWritesNothing() throws {
        let setup = try Setup()
        #expect(try setup.publish(["Schemas/Shop.skan"]).status == 0)
        let before = try setup.snapshot()
        // (what is published, what the diagnostic says)
        let refusals: [([String], String)] = [
            // Version 4 uses bit 5, which version 3 left clear: the two share every value with bit 5 clear.
            (["Tests/SkanCompilerTests/Fixtures/ShopV4.skan"], "[version-overlap]"),
            // The same version number with a changed meaning.
            (["Tests/SkanCompilerTests/Fixtures/Evolution/CoarseAndLock.skan"], "error:"),
            // A version published already, with other content.
            (["Tests/SkanCompilerTests/Fixtures/Evolution/Renamed.skan"], "error:"),
            (["--revoke", "3"], "[publish-state]"),
            (["--rollout", "50"], "[publish-state]"),
        ]
        for (arguments, expected) in refusals {
            let refused = try setup.publish(arguments)
            #expect(refused.status == 1, "\(arguments): \(refused.stderr)")
            #expect(
                refused.stderr.contains(expected) && refused.stderr.contains("nothing was published"),
                "\(arguments): \(refused.stderr)")
            #expect(try setup.snapshot() == before, "\(arguments) wrote")
        }
        // Another key: the manifest in the folder does not verify with it.
        let other = setup.directory.url.appendingPathComponent("other.pem").path
        _ = try CLI.run(
            ["openssl", "ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", other],
            executable: URL(fileURLWithPath: "/usr/bin/env"))
        let wrongKey = try setup.publish(["--rollback"], key: other)
        #expect(wrongKey.status == 1 && wrongKey.stderr.contains("[manifest-invalid]"), "\(wrongKey.stderr)")
        #expect(try setup.snapshot() == before)
        // A changed manifest does not verify either.
        let manifest = setup.out + "/1234567890/manifest.jws"
        var text = try String(contentsOfFile: manifest, encoding: .utf8)
        text = text.replacingOccurrences(of: ".", with: "x.", options: [], range: text.range(of: "."))
        try text.write(toFile: manifest, atomically: true, encoding: .utf8)
        let tampered = try setup.publish(["--rollback"])
        #expect(tampered.status == 1 && tampered.stderr.contains("[manifest-invalid]"), "\(tampered.stderr)")
    }

    @Test func everySignerMakesAManifestOpenSSLVerifies() throws {
        for signer in [["--test-signer"], ["--signer", "openssl dgst -sha256 -sign KEY"]] {
            let setup = try Setup()
            let arguments = signer.map { $0.replacingOccurrences(of: "KEY", with: setup.key) }
            let key = signer.first == "--signer" ? setup.publicKey : setup.key
            let result = try setup.publish(["Schemas/Shop.skan"] + arguments, key: key)
            #expect(result.status == 0, "\(signer): \(result.stderr)")
            #expect(try setup.verifiedOutside(), "\(signer)")
        }
        // A signer that fails, or signs with another key, writes nothing.
        let setup = try Setup()
        let failing = try setup.publish(["Schemas/Shop.skan", "--signer", "exit 3"], key: setup.publicKey)
        #expect(failing.status == 1 && failing.stderr.contains("the signer failed"), "\(failing.stderr)")
        let garbage = try setup.publish(["Schemas/Shop.skan", "--signer", "echo nonsense"], key: setup.publicKey)
        #expect(garbage.status == 1 && garbage.stderr.contains("does not verify"), "\(garbage.stderr)")
        #expect(try setup.snapshot().isEmpty)
    }

    @Test func usageMistakesSayWhatToDo() throws {
        let setup = try Setup()
        for (arguments, expected) in [
            (["--rollback", "--revoke", "3"], "one of --rollout PERCENT, --rollback, --revoke VERSION"),
            (["Schemas/Shop.skan", "--rollout", "150"], "0 to 100"),
            (["Schemas/Shop.skan", "--rollback"], "take no schema"),
        ] {
            let result = try setup.publish(arguments)
            #expect(result.status == 64 && result.stderr.contains(expected), "\(arguments): \(result.stderr)")
        }
        let app = try CLI.run(["publish", "Schemas/Shop.skan", "--app", "x1", "--to", setup.out, "--key", setup.key])
        #expect(app.status == 64 && app.stderr.contains("App Store ID"), "\(app.stderr)")
    }
}

/// `skanc serve --schemas DIR`: what `skanc publish` wrote, served to curl as a static host would, with a strong
/// ETag, 304 to `If-None-Match`, caching headers, and nothing outside the two published shapes.
@Suite struct SchemaServingTests {
    @Test func curlFetchesTheManifestAndTheArtifact() throws {
        let setup = try PublishCommandTests.Setup()
        #expect(try setup.publish(["Schemas/Shop.skan"]).status == 0)
        let data = setup.directory.url.appendingPathComponent("data").path
        let server = try ServeCommandTests.Server(["--data", data, "--schemas", setup.out])
        defer { _ = server.stop() }
        let manifestURL = "\(server.url)/schemas/1234567890/manifest.jws"
        let manifest = try String(contentsOfFile: setup.out + "/1234567890/manifest.jws", encoding: .utf8)
        let first = try ServeCommandTests.curl(["-i", manifestURL])
        let (head, body) = try #require(Self.split(first.stdout))
        #expect(head.hasPrefix("HTTP/1.1 200 OK") && body == manifest, "\(first.stdout)")
        #expect(head.contains("Content-Type: application/jose") && head.contains("Cache-Control: public, max-age=300"))
        let tag = try #require(
            head.split(separator: "\r\n").first { $0.hasPrefix("ETag: ") }.map { String($0.dropFirst(6)) })
        let again = try ServeCommandTests.curl(["-i", "-H", "If-None-Match: \(tag)", manifestURL])
        #expect(again.stdout.hasPrefix("HTTP/1.1 304 Not Modified") && !again.stdout.contains("Content-Length"))
        let other = try ServeCommandTests.curl(["-i", "-H", "If-None-Match: \"elsewhere\"", manifestURL])
        #expect(other.stdout.hasPrefix("HTTP/1.1 200 OK"))
        // The artifact the manifest names: immutable, as its name is its hash.
        let name = try #require(
            try FileManager.default.contentsOfDirectory(atPath: setup.out + "/1234567890/schemas").first)
        let artifact = try ServeCommandTests.curl(["-i", "\(server.url)/schemas/1234567890/schemas/\(name)"])
        #expect(artifact.stdout.hasPrefix("HTTP/1.1 200 OK"), "\(artifact.stdout.prefix(200))")
        #expect(artifact.stdout.contains("Cache-Control: public, max-age=31536000, immutable"))
        // Nothing else: another file, a path that climbs out, a name that is no hash, a POST.
        for path in [
            "/schemas/1234567890/../../key.pem", "/schemas/1234567890/schemas/x.json", "/schemas/key.pem",
            "/schemas/99/manifest.jws",
        ] {
            let refused = try ServeCommandTests.curl([
                "-o", "/dev/null", "-w", "%{http_code}", "--path-as-is", server.url + path,
            ])
            #expect(refused.stdout == "404", "\(path): \(refused.stdout)")
        }
        let post = try ServeCommandTests.curl(["-o", "/dev/null", "-w", "%{http_code}", "-d", "x", manifestURL])
        #expect(post.stdout == "405")
    }

    static func split(_ answer: String) -> (String, String)? {
        guard let range = answer.range(of: "\r\n\r\n") else { return nil }
        return (String(answer[..<range.lowerBound]), String(answer[range.upperBound...]))
    }
}

/// `--schemas DIR/APP_ID`: `postbacks`, `report` and `sql` decode with every version published for the app, as
/// they do with the same versions named as schemas; each postback by the version its fine value belongs to.
@Suite struct PublishedVersionsDecodingTests {
    @Test func thePublishedFolderDecodesAsTheSchemasItHolds() throws {
        let setup = try PublishCommandTests.Setup()
        #expect(try setup.publish(["Schemas/Shop.skan"]).status == 0)
        #expect(try setup.publish(["Tests/SkanCompilerTests/Fixtures/ShopMarked.skan", "--rollout", "10"]).status == 0)
        let journey = setup.directory.url.appendingPathComponent("journey.jsonl")
        try "{\"hour\": 1, \"set\": {\"paymentTier\": \"medium\"}}\n{\"hour\": 60}\n".write(
            to: journey, atomically: true, encoding: .utf8)
        var lines = ""
        for (schema, seed) in [("Schemas/Shop.skan", "3"), ("Tests/SkanCompilerTests/Fixtures/ShopMarked.skan", "4")] {
            let made = try CLI.run(["simulate", schema, journey.path, "--postbacks", "--users", "30", "--seed", seed])
            try #require(made.status == 0, "\(made.stderr)")
            lines += made.stdout
        }
        let postbacks = setup.directory.url.appendingPathComponent("postbacks.jsonl")
        try lines.write(to: postbacks, atomically: true, encoding: .utf8)
        let folder = setup.out + "/1234567890"
        let named = "Schemas/Shop.skan,Tests/SkanCompilerTests/Fixtures/ShopMarked.skan"
        for command in [["postbacks"], ["report", "--format", "json"]] {
            let published = try CLI.run(command + ["--schemas", folder, postbacks.path, "--no-verify"])
            let direct = try CLI.run(command + [named, postbacks.path, "--no-verify"])
            #expect(published.status == 0 && direct.status == 0, "\(published.stderr)")
            #expect(published.stdout == direct.stdout && !published.stdout.isEmpty, "\(command)")
        }
        let rows = try CLI.run(["postbacks", "--schemas", folder, postbacks.path, "--no-verify"]).stdout
        #expect(rows.contains(",3,") && rows.contains(",4,"), "both versions decode rows")
        let sql = try CLI.run(["sql", "--schemas", folder, "--dialect", "duckdb"])
        let namedSQL = try CLI.run(["sql", named, "--dialect", "duckdb"])
        #expect(sql.status == 0 && sql.stdout == namedSQL.stdout)
        let missing = try CLI.run(["postbacks", "--schemas", setup.directory.url.path, postbacks.path])
        #expect(missing.status == 1 && missing.stderr.contains("no manifest.jws"), "\(missing.stderr)")
    }
}
