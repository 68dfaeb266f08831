import Foundation
import SkanPostbacks
import SkanTestSupport
import Testing

/// What the receiver stores: Apple's examples and the benchmark's postbacks are postbacks; a body of another
/// shape is refused with the status that says why.
@Suite struct PostbackShapeCheckTests {
    @Test func applesExamplesArePostbacks() throws {
        var check = PostbackShapeCheck()
        for line in try Paths.text("Tests/Fixtures/apple-examples.jsonl").split(separator: "\n") {
            guard case .postback(let sender) = check.check(Array(line.utf8)) else {
                Issue.record("refused: \(line.prefix(80))")
                continue
            }
            #expect(!sender.adNetwork.isEmpty && !sender.app.isEmpty)
        }
    }

    @Test(
        arguments: [
            (#"{"a":"\#u{FF}"}"#.utf8.map { $0 == 0xC3 ? 0xFF : $0 }, "not-utf8"),
            (Array("nope".utf8), "not-json"),
            (Array("[1]".utf8), "not-object"),
            (Array("{}".utf8), "missing-field"),
            (Array(#"{"version":"4.0","forged":true}"#.utf8), "missing-field"),
            (Array(#"{"version":"5.0","ad-network-id":"a","app-id":1,"transaction-id":"t"}"#.utf8), "unknown-version"),
            (Array(#"{"jws-string":"a.b.c"}"#.utf8), "jws-unreadable"),
        ] as [([UInt8], String)])
    func otherShapesAreRefused(_ body: [UInt8], _ reason: String) {
        var check = PostbackShapeCheck()
        #expect(check.check(body) == .refused(reason: reason))
        #expect(PostbackShapeCheck.reasons.contains(reason))
    }
}
