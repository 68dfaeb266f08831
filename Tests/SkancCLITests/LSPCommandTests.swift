import Foundation
import SkanTestSupport
import Testing

/// `skanc lsp` end to end, as an editor drives it: framed messages on standard input, framed answers on
/// standard output, the exit status the protocol asks for.
@Suite struct LSPCommandTests {
    static func frame(_ json: String) -> String {
        "Content-Length: \(json.utf8.count)\r\n\r\n\(json)"
    }

    /// The bodies of the framed messages in `stream`, as JSON objects.
    static func messages(_ stream: String) throws -> [[String: Any]] {
        var bytes = Array(stream.utf8)[...]
        var out: [[String: Any]] = []
        while !bytes.isEmpty {
            let header = try #require(String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n\r\n").first)
            let length = try #require(Int(header.replacingOccurrences(of: "Content-Length: ", with: "")))
            let start = bytes.startIndex + header.utf8.count + 4
            let body = Data(bytes[start..<start + length])
            out.append(try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any]))
            bytes = bytes[(start + length)...]
        }
        return out
    }

    @Test func anEditorSessionGetsDiagnosticsAndFormatting() throws {
        let schema = try String(contentsOfFile: "Schemas/Shop.skan", encoding: .utf8)
            .replacingOccurrences(of: "coarse", with: "corse", options: [], range: nil)
        let uri = "file:///Shop.skan"
        let open = try JSONSerialization.data(withJSONObject: [
            "jsonrpc": "2.0", "method": "textDocument/didOpen",
            "params": ["textDocument": ["uri": uri, "languageId": "skan", "version": 1, "text": schema]],
        ])
        let input = [
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#,
            #"{"jsonrpc":"2.0","method":"initialized","params":{}}"#,
            String(decoding: open, as: UTF8.self),
            #"{"jsonrpc":"2.0","id":2,"method":"textDocument/formatting","params":{"textDocument":{"uri":"file:///Shop.skan"},"options":{"tabSize":2,"insertSpaces":true}}}"#,
            #"{"jsonrpc":"2.0","id":3,"method":"shutdown"}"#,
            #"{"jsonrpc":"2.0","method":"exit"}"#,
        ].map(Self.frame).joined()
        let result = try CLI.run(["lsp"], stdin: input, in: CLI.packageRoot)
        #expect(result.status == 0, "\(result.stderr)")
        let messages = try Self.messages(result.stdout)
        // The answers to initialize, formatting and shutdown, the diagnostics, and formatting's one message.
        #expect(messages.count == 5)
        #expect(messages.first?["id"] as? Int == 1)
        let published = try #require(messages.first { $0["method"] as? String == "textDocument/publishDiagnostics" })
        let params = try #require(published["params"] as? [String: Any])
        #expect(params["uri"] as? String == uri)
        let diagnostics = try #require(params["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.contains { $0["code"] as? String == "syntax" && $0["severity"] as? Int == 1 })
        // A document with syntax errors: no edits, never an error (editors format on save), and the reason shown.
        let formatting = try #require(messages.first { $0["id"] as? Int == 2 })
        #expect((formatting["result"] as? [Any])?.isEmpty == true && formatting["error"] == nil)
        let shown = try #require(messages.first { $0["method"] as? String == "window/showMessage" })
        #expect(((shown["params"] as? [String: Any])?["message"] as? String)?.contains("syntax errors") == true)
        #expect(messages.last?["id"] as? Int == 3)
    }

    /// `skanc.against` as a git ref and as a file: the document's released version read with git (in the
    /// document's folder) or from the file, and `check --against`'s error on the edited text.
    @Test func theVersionCheckReadsTheReleaseFromGitOrAFile() throws {
        let repository = try TemporaryDirectory()
        let folder = repository.url.path
        let released =
            "schema T\nversion 1\nflag paid at bit 0\nreserved bits 1...5\ncoarse { high when paid  low otherwise }\n"
        try released.write(toFile: folder + "/T.skan", atomically: true, encoding: .utf8)
        try released.write(toFile: folder + "/T-released.skan", atomically: true, encoding: .utf8)
        let env = URL(fileURLWithPath: "/usr/bin/env")
        for command in [
            ["git", "-C", folder, "init", "-q"], ["git", "-C", folder, "add", "T.skan"],
            ["git", "-C", folder, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "v1"],
            ["git", "-C", folder, "tag", "v1"],
        ] {
            let result = try ChildProcess.run(env, command)
            try #require(result.status == 0, "\(command): \(result.stderr)")
        }
        let changed = released.replacingOccurrences(of: "high when paid", with: "medium when paid")
        for against in ["v1", "T-released.skan", "no-such-ref"] {
            let input = [
                #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{},"initializationOptions":{"against":"\#(against)"}}}"#,
                #"{"jsonrpc":"2.0","method":"initialized","params":{}}"#,
                Self.openMessage(uri: "file://\(folder)/T.skan", text: changed),
                Self.openMessage(uri: "file://\(folder)/New.skan", text: changed),
                #"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#, #"{"jsonrpc":"2.0","method":"exit"}"#,
            ].map(Self.frame).joined()
            let result = try CLI.run(["lsp"], stdin: input, in: CLI.packageRoot)
            #expect(result.status == 0, "\(result.stderr)")
            let messages = try Self.messages(result.stdout)
            let codes = messages.filter { $0["method"] as? String == "textDocument/publishDiagnostics" }.map {
                (($0["params"] as? [String: Any])?["diagnostics"] as? [[String: Any]] ?? []).compactMap {
                    $0["code"] as? String
                }
            }
            let shown = messages.filter { $0["method"] as? String == "window/showMessage" }
            if against == "no-such-ref" {
                #expect(codes == [[], []] && shown.count == 2, "\(messages)")
            } else {
                // T.skan changes a value's meaning at version 1; New.skan is in no release (git) or is
                // compared with the file (which it changes too).
                #expect(codes.first == ["version-unchanged"], "\(against): \(messages)")
                #expect(codes.last == (against == "v1" ? [] : ["version-unchanged"]), "\(against)")
                #expect(shown.isEmpty, "\(shown)")
            }
        }
    }

    static func openMessage(uri: String, text: String) -> String {
        let data = try? JSONSerialization.data(withJSONObject: [
            "jsonrpc": "2.0", "method": "textDocument/didOpen",
            "params": ["textDocument": ["uri": uri, "languageId": "skan", "version": 1, "text": text]],
        ])
        return String(decoding: data ?? Data(), as: UTF8.self)
    }

    @Test func inputThatCannotBeFramedEndsTheServerWithAReason() throws {
        let result = try CLI.run(["lsp"], stdin: "Content-Length: many\r\n\r\n{}")
        #expect(result.status == 1)
        #expect(result.stderr.contains("skanc lsp: the input cannot be framed: Content-Length"))
        let closed = try CLI.run(["lsp"], stdin: "")
        #expect(closed.status == 0 && closed.stdout.isEmpty)
        #expect(try CLI.run(["lsp", "extra"]).status == 64)
    }
}
