import Foundation
import SkanCompiler
import SkanCore
import SkanSchema
import SkanSchemaArtifact
import SkanSchemaTools
import SkanTestSupport
import Testing

/// The publish gate's memory: a retired version's postbacks can arrive for 41 days (the third window ends on day
/// 35, its postback up to 144 hours later), so a new version must be told apart from it until then, not after.
@Suite struct PublicationTests {
    static let day = 86_400

    /// Version 3 (Schemas/Shop.skan), retired at `retired`, nothing live.
    static func manifest(retired: Int) throws -> (SchemaManifest, [Int: Schema]) {
        let shop = try ShippedSchemas.compile("Schemas/Shop.skan")
        var manifest = SchemaManifest(appID: "1234567890")
        manifest.serial = 7
        manifest.versions = [
            .init(
                version: 3, artifact: SchemaArtifact(schema: shop, appID: "1234567890").fileName, publishedAt: 0,
                liveSince: 0, retiredAt: retired)
        ]
        return (manifest, [3: shop])
    }

    @Test func aRetiredVersionIsToldApartFor41Days() throws {
        let (manifest, schemas) = try Self.manifest(retired: 1_000 * Self.day)
        let text = try String(contentsOf: Paths.file("Tests/SkanCompilerTests/Fixtures/ShopV4.skan"), encoding: .utf8)
        let compiled = SchemaCompiler.compile(text, path: "ShopV4.skan")
        let v4 = try #require(compiled.schema)
        let at = try #require(compiled.versionLocation)
        let action = Publication.Action.publish(v4, versionAt: at, rollout: nil)
        let early = Publication.plan(action, manifest: manifest, schemas: schemas, now: 1_040 * Self.day)
        #expect(early.manifest == nil && early.artifact == nil)
        #expect(early.diagnostics.map(\.code) == [.versionOverlap], "\(early.diagnostics)")
        let late = Publication.plan(action, manifest: manifest, schemas: schemas, now: 1_042 * Self.day)
        #expect(late.diagnostics.isEmpty, "\(late.diagnostics)")
        let next = try #require(late.manifest)
        #expect(next.live == 4 && next.serial == 8 && next.versions.count == 2)
        #expect(late.artifact?.name == SchemaArtifact(schema: v4, appID: "1234567890").fileName)
    }

    @Test func theManifestReadsBackAsWritten() throws {
        var (manifest, _) = try Self.manifest(retired: 5)
        manifest.live = 3
        manifest.rollout = nil
        manifest.revoked = []
        #expect(try SchemaManifest(bytes: manifest.bytes) == manifest)
        manifest.rollout = (3, 10)
        manifest.revoked = [3]
        #expect(try SchemaManifest(bytes: manifest.bytes) == manifest)
        // A manifest naming a version it does not list is refused.
        var text = String(decoding: manifest.bytes, as: UTF8.self)
        text = text.replacingOccurrences(of: #""live":3"#, with: #""live":9"#)
        #expect(throws: SchemaArtifact.Invalid.self) { try SchemaManifest(bytes: Array(text.utf8)) }
    }
}
