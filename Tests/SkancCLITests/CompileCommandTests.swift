import Foundation
import SkanTestSupport
import Testing

/// `skanc compile SCHEMA [-o FILE.json] [--app APP_ID]`: the artifact on standard output or in a file, the same
/// bytes every run; a schema with errors, a bad app ID and a second schema each say what to do.
@Suite struct CompileCommandTests {
    @Test func writesTheArtifact() throws {
        let directory = try TemporaryDirectory()
        let result = try CLI.run(["compile", "Schemas/Shop.skan", "--app", "1234567890"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        #expect(result.stdout.hasPrefix(#"{"app_id":"1234567890","format":1,"name":"Shop","schema":{"#))
        let file = directory.url.appendingPathComponent("shop.json")
        #expect(try CLI.run(["compile", "Schemas/Shop.skan", "--app", "1234567890", "-o", file.path]).status == 0)
        #expect(try String(contentsOf: file, encoding: .utf8) == result.stdout)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["version"] as? Int == 3 && (object["schema_sha256"] as? String)?.count == 64, "\(object)")
    }

    @Test func refusesWhatIsNotASchemaOrAnAppID() throws {
        let directory = try TemporaryDirectory()
        let broken = directory.url.appendingPathComponent("broken.skan")
        try "schema Broken {\n  version 1\n  field x: flag at bit 9\n}\n".write(
            to: broken, atomically: true, encoding: .utf8)
        let failed = try CLI.run(["compile", broken.path])
        #expect(failed.status == 1 && failed.stdout.isEmpty && failed.stderr.contains("error:"), "\(failed.stderr)")
        let app = try CLI.run(["compile", "Schemas/Shop.skan", "--app", "id123"])
        #expect(app.status == 64 && app.stderr.contains("App Store ID (digits)"), "\(app.stderr)")
        let two = try CLI.run(["compile", "Schemas/Shop.skan", "Schemas/Game.skan"])
        #expect(two.status == 64 && two.stderr.contains("one schema at a time"), "\(two.stderr)")
        let over = try CLI.run(["compile", "Schemas/Shop.skan", "-o", "Schemas/Shop.skan"])
        #expect(over.status == 64, "\(over.stderr)")
    }
}

/// docs/schema-artifact.schema.json describes what `skanc compile` writes: Python's jsonschema (draft 2020-12)
/// validates the artifact of every shipped schema and test fixture, and refuses broken ones.
@Suite struct ArtifactJSONSchemaTests {
    @Test func everyArtifactValidates() throws {
        try SQLEngineTests.requireEngine(
            "jsonschema", check: ["python3", "-c", "import jsonschema"], install: "pip install jsonschema")
        let folders = ["Schemas", "Schemas/Platforms", "Tests/SkanCompilerTests/Fixtures"]
        let paths = try folders.flatMap { folder in
            try Paths.files(in: Paths.file(folder), extension: "skan").map { "\(folder)/\($0.lastPathComponent)" }
        }
        let result = try WarehouseSQLTests.python(
            ["Tests/Scripts/artifact_schema_check.py", CLI.executable.path] + paths)
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr.suffix(2000))")
        #expect(result.stdout.contains(" artifacts validated, 0 problems"), "\(result.stdout)")
    }
}
