import Foundation
import SkanCommandLine
import SkanCore
import SkanCrypto
import SkanSchemaArtifact

/// How `skanc publish` signs a manifest. A production key never meets skanc's own arithmetic (written for
/// verification, not constant-time): openssl signs with it, or an external signer (a KMS or an HSM) does; the
/// built-in signer is for test keys. Every signature is verified with the public key before anything is written.
struct Signing {
    enum Method {
        case openssl(keyPath: String)
        case command(String)
        case builtIn(ECDSASigningKey)
    }

    let publicKey: ECDSAPublicKey
    let method: Method

    init(_ arguments: ParsedArguments, _ context: CommandContext) throws(UsageError) {
        guard let path = arguments[PublishCommand.key] else {
            throw UsageError(message: "name the signing key with --key KEY.pem")
        }
        if arguments.has(PublishCommand.signer), arguments.has(PublishCommand.testSigner) {
            throw UsageError(message: "sign with --signer or with --test-signer, not both")
        }
        guard
            let text = context.read(path, what: "a PEM key", limit: .table).map({
                String(decoding: $0, as: UTF8.self)
            })
        else { throw UsageError(message: "--key: cannot read \(path)") }
        if let command = arguments[PublishCommand.signer] {
            guard let der = PEM.der(text, labelEndingWith: "PUBLIC KEY"), let key = ECDSAPublicKey(der: der) else {
                throw UsageError(
                    message:
                        "with --signer, --key names the signer's P-256 public key in PEM ('-----BEGIN PUBLIC KEY-----')"
                )
            }
            publicKey = key
            method = .command(command)
            return
        }
        guard let der = PEM.der(text, labelEndingWith: "PRIVATE KEY"), let key = ECDSASigningKey(der: der) else {
            throw UsageError(
                message: "--key names a P-256 private key in PEM (openssl ecparam -name prime256v1 -genkey -noout)")
        }
        publicKey = key.publicKey
        method = arguments.has(PublishCommand.testSigner) ? .builtIn(key) : .openssl(keyPath: path)
    }

    /// The manifest signed and verified; nil (the problem printed) when the signer fails or its signature does
    /// not verify with the public key.
    func sign(_ manifest: SchemaManifest, _ context: CommandContext) -> SignedManifest? {
        let input = SignedManifest.signingInput(manifest, publicKey: publicKey)
        let signature: [UInt8]
        switch method {
        case .builtIn(let key): signature = key.rawSignature(for: input)
        case .openssl(let path):
            guard
                let output = Self.run(
                    ["/usr/bin/env", "openssl", "dgst", "-sha256", "-sign", path], input: input, context)
            else { return nil }
            signature = output
        case .command(let command):
            guard let output = Self.run(["/bin/sh", "-c", command], input: input, context) else { return nil }
            signature = output
        }
        guard let signed = SignedManifest(manifest, publicKey: publicKey, signature: signature) else {
            context.error("error: the signature does not verify with the public key: is the key the signer's?")
            return nil
        }
        return signed
    }

    /// The output of `command` given `input`; nil (its error printed) when it cannot run or fails.
    static func run(_ command: [String], input: [UInt8], _ context: CommandContext) -> [UInt8]? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        // The input from a file, not a pipe: a signer that exits without reading it cannot break the write.
        let inputPath = FileManager.default.temporaryDirectory.appendingPathComponent("skanc-sign-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: inputPath) }
        let (stdout, stderr) = (Pipe(), Pipe())
        do {
            try Data(input).write(to: inputPath, options: .withoutOverwriting)
            process.standardInput = try FileHandle(forReadingFrom: inputPath)
            process.standardOutput = stdout
            process.standardError = stderr
            try process.run()
        } catch {
            context.error(
                "error: cannot run the signer \(command.joined(separator: " ")): \(error.localizedDescription)")
            return nil
        }
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let errors = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let message = String(decoding: errors, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            context.error("error: the signer failed (exit \(process.terminationStatus)): \(message)")
            return nil
        }
        return Array(output)
    }
}

/// A public key from PEM: a `PUBLIC KEY` block, or the public half of a `PRIVATE KEY` block.
enum PublicKeyFile {
    static func read(_ path: String, _ context: CommandContext) -> ECDSAPublicKey? {
        guard let bytes = context.read(path, what: "a PEM key", limit: .table) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        if let der = PEM.der(text, labelEndingWith: "PUBLIC KEY"), let key = ECDSAPublicKey(der: der) { return key }
        if let der = PEM.der(text, labelEndingWith: "PRIVATE KEY"), let key = ECDSASigningKey(der: der) {
            return key.publicKey
        }
        context.diagnostics([.error(.manifestInvalid, "not a P-256 key in PEM", at: nil)], path: path)
        return nil
    }
}
