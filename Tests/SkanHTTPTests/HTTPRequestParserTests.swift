import SkanHTTP
import Testing

@Suite struct HTTPRequestParserTests {
    static func parse(_ text: String, limits: HTTPRequestParser.Limits = .init()) -> [HTTPRequestParser.Outcome] {
        var parser = HTTPRequestParser(limits: limits)
        parser.feed(Array(text.utf8))
        var outcomes: [HTTPRequestParser.Outcome] = []
        while let outcome = parser.next() { outcomes.append(outcome) }
        return outcomes
    }

    static func refusal(_ text: String, limits: HTTPRequestParser.Limits = .init()) -> HTTPStatus? {
        guard case .refused(let refusal)? = parse(text, limits: limits).last else { return nil }
        return refusal.status
    }

    @Test func aPostWithContentLength() throws {
        let outcomes = Self.parse(
            "POST /.well-known/skadnetwork/report-attribution/ HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\n{}")
        guard case .request(let request)? = outcomes.first else {
            Issue.record("no request: \(outcomes)")
            return
        }
        #expect(request.method == "POST")
        #expect(request.path == "/.well-known/skadnetwork/report-attribution/")
        #expect(request.body == Array("{}".utf8))
        #expect(request.keepsAlive)
    }

    /// Bytes arriving one at a time give the same requests as all at once, pipelined ones in order.
    @Test func feedingByteByByteAndPipelining() {
        let text =
            "POST /a HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\nabc\r\n2\r\nde\r\n0\r\nT: 1\r\n\r\n"
            + "GET /b?format=html HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"
        var parser = HTTPRequestParser()
        var requests: [HTTPRequest] = []
        for byte in text.utf8 {
            parser.feed([byte])
            while case .request(let request)? = parser.next() { requests.append(request) }
        }
        #expect(requests.map(\.target) == ["/a", "/b?format=html"])
        #expect(requests.first?.body == Array("abcde".utf8))
        #expect(requests.last?.queryValue("format") == "html")
        #expect(requests.last?.keepsAlive == false)
        #expect(Self.parse(text).count == 2)
    }

    @Test func smugglingAndAmbiguityAreRefused() {
        let cases: [(String, HTTPStatus)] = [
            ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", .badRequest),
            ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nabc", .badRequest),
            ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: +3\r\n\r\nabc", .badRequest),
            ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", .badRequest),
            ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", .badRequest),
            ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX\r\n", .badRequest),
            ("GET http://example.com/ HTTP/1.1\r\nHost: a\r\n\r\n", .badRequest),
            ("GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n", .badRequest),
            ("GET / HTTP/1.1\r\nHost : a\r\n\r\n", .badRequest),
            ("GET / HTTP/1.1\nHost: a\r\n\r\n", .badRequest),
            ("GET / HTTP/1.1\r\n\r\n", .badRequest),
            ("GET / HTTP/2.0\r\nHost: a\r\n\r\n", .versionNotSupported),
            ("GET /\u{1} HTTP/1.1\r\nHost: a\r\n\r\n", .badRequest),
            ("GET / HTTP/1.1\r\nHost: a\r\nX: a\u{0}b\r\n\r\n", .badRequest),
        ]
        for (text, status) in cases {
            #expect(Self.refusal(text) == status, "\(text.debugDescription)")
        }
    }

    @Test func boundsAreHeldBeforeTheBytesAre() {
        let limits = HTTPRequestParser.Limits(headerBytes: 1024, headerCount: 4, bodyBytes: 100)
        #expect(
            Self.refusal("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 101\r\n\r\n", limits: limits)
                == .contentTooLarge)
        #expect(
            Self.refusal(
                "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n65\r\n"
                    + String(repeating: "a", count: 101),
                limits: limits) == .contentTooLarge)
        #expect(Self.refusal("GET /" + String(repeating: "a", count: 2000), limits: limits) == .headerFieldsTooLarge)
        #expect(
            Self.refusal(
                "GET / HTTP/1.1\r\nHost: a\r\n" + String(repeating: "X: 1\r\n", count: 5) + "\r\n", limits: limits)
                == .headerFieldsTooLarge)
        // After a refusal the stream is not resynchronised: nothing more comes out.
        var parser = HTTPRequestParser(limits: limits)
        parser.feed(Array("BAD\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n".utf8))
        guard case .refused? = parser.next() else {
            Issue.record("not refused")
            return
        }
        #expect(parser.next() == nil)
    }

    /// Random bytes and random cuts of valid requests never crash the parser, and what it holds stays bounded.
    /// The chunk-size line limit holds for a whole line that arrives at once, not only for one still arriving.
    @Test func aLongChunkSizeLineIsRefusedWhole() {
        let head = "POST /a HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
        let long = "1;" + String(repeating: "x", count: 2000) + "\r\na\r\n0\r\n\r\n"
        #expect(Self.refusal(head + long) == .badRequest)
        let short = "1;" + String(repeating: "x", count: 1000) + "\r\na\r\n0\r\n\r\n"
        guard case .request(let request)? = Self.parse(head + short).first else {
            Issue.record("a 1,002-byte chunk line was refused")
            return
        }
        #expect(request.body == Array("a".utf8))
    }

    /// `Expect: 100-continue` is asked for once per request, while its body is awaited; not for HTTP/1.0.
    @Test func continueIsAskedForOncePerRequest() {
        var parser = HTTPRequestParser()
        parser.feed(Array("POST /a HTTP/1.1\r\nHost: a\r\nExpect: 100-Continue\r\nContent-Length: 2\r\n\r\n".utf8))
        let first = parser.next()
        let asked = parser.takeContinueRequest()
        let askedAgain = parser.takeContinueRequest()
        #expect(first == nil && asked && !askedAgain)
        parser.feed(Array("{}".utf8))
        guard case .request? = parser.next() else {
            Issue.record("no request after the body")
            return
        }
        parser.feed(Array("POST /a HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n".utf8))
        let old = parser.next()
        let oldAsked = parser.takeContinueRequest()
        #expect(old == nil && !oldAsked)
    }

    @Test func randomInputNeverCrashes() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func random() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        let alphabet = Array("GET POST / HTTP/1.1\r\n:Host Content-Length Transfer-Encoding chunked 0123456789abc".utf8)
        for _ in 0..<2000 {
            var parser = HTTPRequestParser(limits: .init(headerBytes: 512, headerCount: 8, bodyBytes: 256))
            for _ in 0..<Int(random() % 8) {
                let count = Int(random() % 200)
                parser.feed(
                    (0..<count).map { _ in
                        random() % 4 == 0
                            ? UInt8(truncatingIfNeeded: random()) : alphabet[Int(random() % UInt64(alphabet.count))]
                    })
                while parser.next() != nil {}
            }
        }
    }
}

/// The answers a forwarding destination gives, read to their end so that the connection can carry the next.
@Suite struct HTTPResponseParserTests {
    static func read(_ text: String, closing: Bool = false) throws(HTTPResponseParser.Failure) -> HTTPResponseParser
        .Answer?
    {
        var parser = HTTPResponseParser()
        parser.feed(Array(text.utf8))
        if closing { parser.closed() }
        return try parser.answer()
    }

    @Test func answersOfEveryFraming() throws {
        #expect(
            try Self.read("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nok\n") == .init(status: 200, keepsAlive: true))
        #expect(try Self.read("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nok") == nil)
        #expect(
            try Self.read("HTTP/1.1 503 Busy\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nno\r\n0\r\n\r\n")
                == .init(status: 503, keepsAlive: true))
        #expect(
            try Self.read("HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n")
                == .init(status: 204, keepsAlive: false))
        #expect(try Self.read("HTTP/1.0 200 OK\r\n\r\nbody") == nil)
        #expect(try Self.read("HTTP/1.0 200 OK\r\n\r\nbody", closing: true) == .init(status: 200, keepsAlive: false))
    }

    @Test func whatIsNoAnswerFails() {
        #expect(throws: HTTPResponseParser.Failure.self) { try Self.read("SMTP ready\r\n\r\n") }
        #expect(throws: HTTPResponseParser.Failure.self) {
            try Self.read("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nok", closing: true)
        }
        #expect(throws: HTTPResponseParser.Failure.self) {
            try Self.read("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n")
        }
        #expect(throws: HTTPResponseParser.Failure.self) { try Self.read("", closing: true) }
        #expect(throws: HTTPResponseParser.Failure.self) {
            try Self.read("HTTP/1.1 200 OK\r\nX: " + String(repeating: "a", count: 17_000))
        }
    }
}
