// libFuzzer target: any bytes as what a client sends `skanc serve`, fed to the request parser in pieces cut
// where the input says: no crash, no hang; requests come out whole and within the limits, and a refusal ends
// the stream (nothing is parsed after it). The same bytes as what a forwarding destination answers, fed to the
// response parser: an answer's status is a status, and a failure ends the reading.
import FuzzSupport
import SkanHTTP

/// One input; a crash, leak or failed check is a finding.
func fuzzHTTP(_ input: UnsafeRawBufferPointer) -> Int32 {
    let bytes = Array(input)
    let limits = HTTPRequestParser.Limits(headerBytes: 1024, headerCount: 16, bodyBytes: 512)
    var parser = HTTPRequestParser(limits: limits)
    // The first byte says how to cut the rest into reads, as a network would.
    let piece = Int(bytes.first ?? 1) % 37 + 1
    var refused = false
    var offset = 1
    while offset < bytes.count {
        parser.feed(bytes[offset..<min(offset + piece, bytes.count)])
        offset += piece
        while let outcome = parser.next() {
            if refused { fatalError("a request after a refusal") }
            switch outcome {
            case .request(let request):
                if request.body.count > limits.bodyBytes { fatalError("a body over the limit") }
                if request.headers.count > limits.headerCount { fatalError("headers over the limit") }
                if !request.target.hasPrefix("/") { fatalError("a target not in origin form") }
                _ = HTTPResponse(.ok, body: "stored\n").serialized()
            case .refused:
                refused = true
            }
        }
    }
    fuzzAnswer(bytes, piece: piece)
    return 0
}

/// The bytes as an answer to a forwarded postback, in the same pieces, the connection closed at the end.
func fuzzAnswer(_ bytes: [UInt8], piece: Int) {
    var parser = HTTPResponseParser()
    var offset = 1
    while true {
        if offset < bytes.count {
            parser.feed(bytes[offset..<min(offset + piece, bytes.count)])
            offset += piece
        } else {
            parser.closed()
        }
        do {
            if let answer = try parser.answer() {
                if !(100...599).contains(answer.status) { fatalError("a status out of range") }
                return
            }
        } catch {
            return
        }
        if offset >= bytes.count + piece { return }
    }
}

runLibFuzzer { data, count in fuzzHTTP(fuzzInput(data, count)) }
