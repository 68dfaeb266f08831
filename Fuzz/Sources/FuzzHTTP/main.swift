// libFuzzer target: any bytes as what a client sends `skanc serve`, fed to the request parser in pieces cut
// where the input says: no crash, no hang; requests come out whole and within the limits, and a refusal ends
// the stream (nothing is parsed after it).
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
    return 0
}

runLibFuzzer { data, count in fuzzHTTP(fuzzInput(data, count)) }
