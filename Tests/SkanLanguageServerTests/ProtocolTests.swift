import SkanCore
import SkanLanguageServer
import Testing

/// JSON-RPC and the protocol's life cycle: errors with the protocol's codes, never a crash, and the exit status
/// the protocol asks for.
@Suite struct ProtocolTests {
    @Test func initializeAnswersTheCapabilities() throws {
        var session = ServerSession()
        let responseAnswer = session.request("initialize", #"{"capabilities": {}}"#)
        let response = try #require(responseAnswer)
        #expect(response["id"]?.integer == 1)
        #expect(response["result"]?["capabilities"]?["textDocumentSync"]?["change"]?.integer == 1)
        #expect(response["result"]?["serverInfo"]?["name"]?.string == "skanc")
        #expect(session.request("initialize", "{}")?["error"]?["code"]?.integer == -32600)
    }

    @Test func errorsCarryTheProtocolsCodes() throws {
        var session = ServerSession()
        #expect(session.request("textDocument/formatting", "{}")?["error"]?["code"]?.integer == -32002)
        session = ServerSession.initialized()
        #expect(session.send("{not json").first?["error"]?["code"]?.integer == -32700)
        #expect(session.send("{not json").first?["id"].map { if case .null = $0 { true } else { false } } == true)
        #expect(session.send("[1, 2]").first?["error"]?["code"]?.integer == -32600)
        #expect(session.send(#"{"jsonrpc": "2.0", "id": 7}"#).first?["error"]?["code"]?.integer == -32600)
        #expect(session.send(#"{"jsonrpc": "1.0", "id": 8, "method": "x"}"#).first?["id"]?.integer == 8)
        let unknownAnswer = session.request("textDocument/hoverish", "{}")
        let unknown = try #require(unknownAnswer)
        #expect(unknown["error"]?["code"]?.integer == -32601)
        // A string id comes back as a string; an unknown notification and a client's response get no answer.
        #expect(session.send(#"{"jsonrpc": "2.0", "id": "a", "method": "shutdownx"}"#).first?["id"]?.string == "a")
        #expect(session.notify("$/cancelRequest", #"{"id": 1}"#).isEmpty)
        #expect(session.send(#"{"jsonrpc": "2.0", "id": 3, "result": null}"#).isEmpty)
    }

    @Test func exitAfterShutdownIsZeroAndWithoutItOne() throws {
        var session = ServerSession.initialized()
        #expect(session.request("shutdown", "null")?["result"] != nil)
        #expect(session.request("textDocument/formatting", "{}")?["error"]?["code"]?.integer == -32600)
        _ = session.notify("exit", "null")
        #expect(session.server.exitStatus == 0)
        var abrupt = ServerSession.initialized()
        _ = abrupt.notify("exit", "null")
        #expect(abrupt.server.exitStatus == 1)
    }

    /// What `initialize` announces is what is served: each capability's method answers (not MethodNotFound), and
    /// the capabilities are exactly these.
    @Test func everyAnnouncedCapabilityIsServed() throws {
        let served = [
            "textDocumentSync": "textDocument/didOpen", "documentFormattingProvider": "textDocument/formatting",
            "documentSymbolProvider": "textDocument/documentSymbol", "hoverProvider": "textDocument/hover",
            "definitionProvider": "textDocument/definition", "referencesProvider": "textDocument/references",
            "documentHighlightProvider": "textDocument/documentHighlight",
            "foldingRangeProvider": "textDocument/foldingRange", "inlayHintProvider": "textDocument/inlayHint",
            "semanticTokensProvider": "textDocument/semanticTokens/full/delta",
            "completionProvider": "textDocument/completion", "codeActionProvider": "textDocument/codeAction",
            "renameProvider": "textDocument/prepareRename", "codeLensProvider": "textDocument/codeLens",
        ]
        var session = ServerSession()
        let answer = session.request("initialize", #"{"capabilities": {}}"#)
        guard case .object(let capabilities)? = answer?["result"]?["capabilities"] else {
            Issue.record("no capabilities: \(String(describing: answer))")
            return
        }
        #expect(Set(capabilities.map(\.0)) == Set(served.keys))
        _ = session.notify("initialized", "{}")
        _ = session.open("schema T\nversion 1\nflag a at bit 0\nreserved bits 1...5\ncoarse { low otherwise }\n")
        let params =
            #"{"textDocument": {"uri": "file:///schema.skan"}, "position": {"line": 2, "character": 5}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 2, "character": 0}}, "context": {"includeDeclaration": true}, "newName": "b", "previousResultId": "0"}"#
        for method in served.values where method != "textDocument/didOpen" {
            let response = session.request(method, params)
            #expect(response?["error"]?["code"]?.integer != -32601, "\(method): \(String(describing: response))")
            #expect(response?["result"] != nil, "\(method)")
        }
        #expect(session.request("textDocument/inlineValue", params)?["error"]?["code"]?.integer == -32601)
    }

    /// Random bytes and random mutations of real messages: every answer is JSON-RPC, none crashes the server.
    @Test func randomMessagesGetProtocolAnswers() {
        var session = ServerSession.initialized()
        let seeds = [
            #"{"jsonrpc": "2.0", "id": 1, "method": "textDocument/formatting", "params": {"textDocument": {"uri": "u"}}}"#,
            #"{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": "u", "text": "schema T\nversion 1\n"}}}"#,
            #"{"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"textDocument": {"uri": "u"}, "contentChanges": [{"range": {"start": {"line": 9, "character": 99}, "end": {"line": 0, "character": 0}}, "text": "é"}]}}"#,
            #"{"jsonrpc": "2.0", "id": 2, "method": "textDocument/completion", "params": {"textDocument": {"uri": "u"}, "position": {"line": 1, "character": 3}}}"#,
            #"{"jsonrpc": "2.0", "id": 3, "method": "textDocument/codeAction", "params": {"textDocument": {"uri": "u"}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 2, "character": 0}}}}"#,
            #"{"jsonrpc": "2.0", "id": 4, "method": "textDocument/rename", "params": {"textDocument": {"uri": "u"}, "position": {"line": 0, "character": 8}, "newName": "V"}}"#,
        ]
        // Seeded, so a failure repeats.
        var generator = SplitMix64(seed: 45)
        for round in 0..<2000 {
            var bytes = Array(seeds[round % seeds.count].utf8)
            for _ in 0..<Int.random(in: 0...4, using: &generator) {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                bytes[index] = UInt8.random(in: 0...255, using: &generator)
            }
            for answer in session.server.handle(bytes) {
                var reader = JSONReader(bytes: answer, maximumDepth: 64, tooDeep: "deep")
                let document = try? reader.document()
                #expect(document?["jsonrpc"]?.string == "2.0")
            }
        }
    }
}
