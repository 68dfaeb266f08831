import Foundation
import SkanFiles
import SkanPostbacks
import Testing

@testable import SkanReceiver

/// Postbacks signed with Apple's development keys are test data: stored apart in `DATA/development`, in no
/// production figure and never forwarded, unless asked for as production; a forged claim of a development key is
/// verified before anything is stored, so it opens no way around the quota of failed signatures.
@Suite struct DevelopmentStoreTests {
    static let aakPath = "/.well-known/appattribution/report-attribution"
    static let skanPath = "/.well-known/skadnetwork/report-attribution/"

    /// Apple's examples: the sixth is an AdAttributionKit postback signed with a development key.
    static func examples() throws -> (production: [[UInt8]], development: [UInt8]) {
        let lines = try exampleLines()
        return (Array(lines[..<5]), lines[5])
    }

    static func storedLines(_ directory: String) throws -> [String] {
        let store = try PostbackStore(directory: directory, instance: "reader")
        return try store.segments().flatMap { path in
            String(decoding: try DurableFiles.contents(path), as: UTF8.self).split(separator: "\n").map(String.init)
        }
    }

    @Test func theShapeCheckTellsWhichPostbacksClaimADevelopmentKey() throws {
        var check = PostbackShapeCheck()
        let claims = try exampleLines().map { line -> Bool in
            guard case .postback(let sender) = check.check(line) else { return false }
            return sender.claimsDevelopment
        }
        #expect(claims == [false, false, false, false, false, true, false])
    }

    @Test func developmentPostbacksAreStoredApartAndCountedNowhere() throws {
        let running = try RunningReceiver()
        let (production, development) = try Self.examples()
        let client = try LoopbackClient(port: running.port)
        #expect(try client.exchange("POST", Self.aakPath, body: development).status == 200)
        for line in production { #expect(try client.exchange("POST", Self.skanPath, body: line).status == 200) }
        // The development key's signature checked, a byte of it changed: not stored anywhere.
        var forged = development
        let jwsStart = try #require(firstIndex(of: Array(#""jws-string":""#.utf8), in: forged)) + 14
        let jwsEnd = try #require(forged[jwsStart...].firstIndex(of: UInt8(ascii: "\"")))
        let signatureStart = try #require(forged[jwsStart..<jwsEnd].lastIndex(of: UInt8(ascii: "."))) + 1
        forged[signatureStart] = forged[signatureStart] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        #expect(try client.exchange("POST", Self.aakPath, body: forged).status == 503)
        let admin = try LoopbackClient(port: running.adminPort)
        var metrics = try admin.exchange("GET", "/metrics")
        while !metrics.body.contains("skanc_postbacks_uncounted 0\n") {
            metrics = try admin.exchange("GET", "/metrics")
        }
        running.stop()
        #expect(metrics.body.contains("skanc_development_postbacks_stored_total 1\n"), "\(metrics.body)")
        #expect(metrics.body.contains("skanc_bodies_refused_total{reason=\"development-unverified\"} 1\n"))
        #expect(metrics.body.contains("skanc_postbacks_by_signature_total{signature=\"development\"} 0\n"))
        let stored = try Self.storedLines(running.store)
        #expect(stored.count == production.count)
        #expect(try Self.storedLines(running.store + "/development") == [String(decoding: development, as: UTF8.self)])
    }

    @Test func allowedDevelopmentPostbacksAreStoredWithTheRest() throws {
        let running = try RunningReceiver { $0.verification = PostbackVerification(allowDevelopment: true) }
        let (_, development) = try Self.examples()
        let client = try LoopbackClient(port: running.port)
        #expect(try client.exchange("POST", Self.aakPath, body: development).status == 200)
        running.stop()
        #expect(try Self.storedLines(running.store) == [String(decoding: development, as: UTF8.self)])
        #expect(!FileManager.default.fileExists(atPath: running.store + "/development"))
    }
}

/// Where `needle` first starts in `bytes`.
private func firstIndex(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
    guard bytes.count >= needle.count else { return nil }
    return (0...(bytes.count - needle.count)).first { Array(bytes[$0..<($0 + needle.count)]) == needle }
}
