import Foundation
import SkanCompiler
import SkanCore
import SkanSchema
import SkanSchemaArtifact
import SkanTestSupport
import Testing

/// The artifact reads back into the model the compiler made, for every schema in the repository and every example
/// of the language reference; a changed, truncated or hostile file is refused with a message, never a crash.
@Suite struct SchemaArtifactTests {
    /// Every schema that compiles clean: shipped, the examples package's, the test fixtures', the reference's.
    static let schemas: [(name: String, schema: Schema)] = {
        var texts: [(String, String)] = []
        for folder in [
            "Schemas", "Schemas/Platforms", "Examples/Sources/AttributionDemo", "Examples/Sources/JourneyDemo",
            "Examples/Sources/MainActorApp", "Examples/Sources/ShopDemo", "Examples/Sources/ShopDemo/Legacy",
            "Tests/SkanCompilerTests/Fixtures", "Tests/SkanCompilerTests/Fixtures/Evolution",
            "Tests/SkanPlatformsTests/Fixtures",
        ] {
            for url in (try? Paths.files(in: Paths.file(folder), extension: "skan")) ?? [] {
                texts.append(("\(folder)/\(url.lastPathComponent)", try! String(contentsOf: url, encoding: .utf8)))
            }
        }
        for (index, example) in ((try? LanguageReferenceExamples.all()) ?? []).enumerated() {
            texts.append(("reference example \(index) (line \(example.line))", example.schema))
        }
        return texts.compactMap { name, text in SchemaCompiler.compile(text, path: name).schema.map { (name, $0) } }
    }()

    /// `schema` without where each coarse rule was written (the artifact keeps no source positions).
    static func withoutLocations(_ schema: Schema) -> Schema {
        var copy = schema
        copy.coarseRulesByWindow = schema.coarseRulesByWindow.map { rules in
            rules.map {
                CoarseRule(
                    value: $0.value, condition: $0.condition, location: SourceLocation(line: 0, column: 0, offset: 0),
                    text: $0.text)
            }
        }
        return copy
    }

    @Test func everySchemaReadsBackAsTheSameModel() throws {
        #expect(Self.schemas.count >= 40, "\(Self.schemas.map(\.name))")
        for (name, schema) in Self.schemas {
            let artifact = SchemaArtifact(schema: schema, appID: "1234567890")
            let read = try SchemaArtifact(bytes: artifact.bytes)
            #expect(read.schema == Self.withoutLocations(schema), "\(name)")
            #expect(read.appID == "1234567890")
            #expect(read.bytes == artifact.bytes, "\(name): the bytes of what was read differ")
            #expect(artifact.bytes.count <= 16 * 1024, "\(name): \(artifact.bytes.count) bytes")
        }
    }

    @Test func theBytesAreCanonical() throws {
        let schema = try ShippedSchemas.compile("Schemas/Game.skan")
        let bytes = SchemaArtifact(schema: schema).bytes
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix(#"{"app_id":null,"format":1,"name":"Game","schema":{"coarse":"#), "\(text.prefix(80))")
        #expect(text.hasSuffix("}\n") && !text.dropLast().contains("\n") && !text.contains(": "))
        // No floating-point number: every decimal is text (`"lower":"0.01"`).
        #expect(text.contains(#""lower":"0.01""#) && !text.contains(#""lower":0"#), "\(text)")
        #expect(SchemaArtifact(schema: schema).bytes == bytes)
    }

    @Test func aChangedFileIsRefused() throws {
        let schema = try ShippedSchemas.compile("Schemas/Game.skan")
        let text = String(decoding: SchemaArtifact(schema: schema).bytes, as: UTF8.self)
        let cases: [(String, String, String)] = [
            (
                "a rule's text changed", text.replacingOccurrences(of: #""otherwise""#, with: #""otherwize""#),
                "schema_sha256"
            ),
            ("another format", text.replacingOccurrences(of: #""format":1"#, with: #""format":2"#), "format 2"),
            ("truncated", String(text.prefix(text.count / 2)), "not JSON"),
            ("not an object", "[]", "format is a whole number"),
            (
                "a field index out of range", text.replacingOccurrences(of: #""field":1,"#, with: #""field":99,"#),
                "an index below"
            ),
            ("a bit outside the value", text.replacingOccurrences(of: #""bits":[0,"#, with: #""bits":[6,"#), "0...5"),
            ("deep", String(repeating: "[", count: 100_000), "nested deeper"),
            ("white space", text.replacingOccurrences(of: #","format""#, with: #", "format""#), "canonical form"),
            (
                "a member it does not know", text.replacingOccurrences(of: #"{"app_id""#, with: #"{"a":1,"app_id""#),
                "canonical form"
            ),
        ]
        for (what, bytes, expected) in cases {
            #expect(throws: SchemaArtifact.Invalid.self, "\(what)") { try SchemaArtifact(bytes: Array(bytes.utf8)) }
            do {
                _ = try SchemaArtifact(bytes: Array(bytes.utf8))
            } catch {
                #expect(error.message.contains(expected), "\(what): \(error.message)")
            }
        }
        let large = Array(repeating: UInt8(ascii: " "), count: SchemaArtifact.maximumBytes + 1)
        #expect(throws: SchemaArtifact.Invalid.self) { try SchemaArtifact(bytes: large) }
    }
}
