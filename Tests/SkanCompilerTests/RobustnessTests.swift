import Foundation
import SkanCompiler
import SkanCore
import SkanTestSupport
import Testing

/// The front end must answer every input with diagnostics or a schema, never a crash: truncated and
/// corrupted versions of every example, random bytes, and oversized input.
@Suite struct RobustnessTests {
    static let examples: [[UInt8]] = {
        let urls =
            ((try? Paths.files(in: Paths.schemas, extension: "skan")) ?? [])
            + ((try? Paths.files(in: Paths.invalidFixtures, extension: "skan")) ?? [])
        return urls.compactMap { try? [UInt8](Data(contentsOf: $0)) }
    }()

    @Test func everyExampleIsRead() {
        #expect(Self.examples.count == 10)
    }

    @Test func everyTruncationIsHandled() {
        for bytes in Self.examples {
            for length in 0..<bytes.count {
                let result = SchemaCompiler.compile(SourceText(path: "t", bytes: Array(bytes[..<length])))
                // A cut schema is only whole again when it ends exactly at a declaration's end.
                #expect(result.schema != nil || result.diagnostics.hasErrors)
            }
        }
    }

    @Test func everyCorruptionIsHandled() {
        let replacements: [UInt8] = [
            0x00, 0xFF, UInt8(ascii: "{"), UInt8(ascii: "\""), UInt8(ascii: "9"), UInt8(ascii: "\n"),
        ]
        for bytes in Self.examples {
            for position in bytes.indices {
                for replacement in replacements {
                    var corrupted = bytes
                    corrupted[position] = replacement
                    let result = SchemaCompiler.compile(SourceText(path: "c", bytes: corrupted))
                    #expect(result.schema != nil || result.diagnostics.hasErrors)
                }
            }
        }
    }

    @Test func randomBytesAreHandled() {
        var generator = SplitMix64(seed: 0x5CA7)
        for _ in 0..<300 {
            let bytes = (0..<Int.random(in: 0..<2000, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            #expect(SchemaCompiler.compile(SourceText(path: "r", bytes: bytes)).diagnostics.hasErrors)
        }
    }

    @Test func oversizedInputIsALimit() {
        let result = SchemaCompiler.compile(
            SourceText(path: "big", bytes: Array(repeating: UInt8(ascii: "a"), count: 2 << 20)))
        #expect(result.diagnostics.map(\.code) == [.limit])
    }
}
