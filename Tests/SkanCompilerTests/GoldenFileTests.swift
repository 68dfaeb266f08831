import Foundation
public import SkanCompiler
import SkanTestSupport
public import Testing

/// Generated Swift for each example schema and access level must equal its golden file in
/// Tests/GeneratedCode/<Level>/, byte for byte (see `expectGolden`).
@Suite struct GoldenFileTests {
    /// Schemas with goldens, as paths relative to the package root (the header shows these).
    static let schemas = [
        "Schemas/Shop.skan", "Schemas/EventFlags.skan", "Schemas/Subscription.skan", "Schemas/Game.skan",
        "Tests/SkanCompilerTests/Fixtures/Torture.skan", "Tests/SkanCompilerTests/Fixtures/ShopV4.skan",
        "Tests/SkanCompilerTests/Fixtures/ShopMarked.skan", "Tests/SkanCompilerTests/Fixtures/Quiet.skan",
    ]

    static let cases: [(String, SwiftGenerator.AccessLevel)] = schemas.flatMap { schema in
        SwiftGenerator.AccessLevel.allCases.map { (schema, $0) }
    }

    /// The ad platforms' configurations (Schemas/Platforms), public only: GeneratedCodeTests runs each against
    /// the reference semantics on random activities.
    static let platformSchemas: [String] =
        ((try? Paths.files(in: Paths.schemas.appendingPathComponent("Platforms"), extension: "skan")) ?? [])
        .map { "Schemas/Platforms/" + $0.lastPathComponent }.sorted()

    @Test(arguments: platformSchemas)
    func platformCodeMatchesGolden(_ schemaPath: String) throws {
        let text = try String(contentsOf: Paths.packageRoot.appendingPathComponent(schemaPath), encoding: .utf8)
        let result = SchemaCompiler.compile(text, path: schemaPath)
        let schema = try #require(result.schema, "\(result.diagnostics)")
        let generated = SwiftGenerator.generate(schema, options: .init(accessLevel: .public, sourceName: schemaPath))
        let name = URL(fileURLWithPath: schemaPath).deletingPathExtension().lastPathComponent
        try expectGolden(generated, at: "Tests/GeneratedCode/Platforms/\(name).swift")
    }

    @Test(arguments: cases)
    func generatedCodeMatchesGolden(_ schemaPath: String, _ level: SwiftGenerator.AccessLevel) throws {
        let text = try String(contentsOf: Paths.packageRoot.appendingPathComponent(schemaPath), encoding: .utf8)
        let result = SchemaCompiler.compile(text, path: schemaPath)
        let schema = try #require(result.schema, "\(result.diagnostics)")
        let generated = SwiftGenerator.generate(schema, options: .init(accessLevel: level, sourceName: schemaPath))
        let name = URL(fileURLWithPath: schemaPath).deletingPathExtension().lastPathComponent
        try expectGolden(generated, at: "Tests/GeneratedCode/\(level.rawValue.capitalized)/\(name).swift")
    }

    @Test func headerNamesTheSchemaAndNothingOfTheMachine() throws {
        let schema = try shippedSchema("Shop")
        let code = SwiftGenerator.generate(schema, options: .init(sourceName: "Schemas/Shop.skan"))
        let header = code.split(separator: "\n").prefix(3)
        #expect(header[0].contains("Schemas/Shop.skan") && header[0].contains("Do not edit"))
        #expect(header[1] == "// swift-format-ignore-file")
        #expect(header[2] == "// swiftlint:disable all")
        #expect(!code.contains("import "))
    }
}

extension SwiftGenerator.AccessLevel: CustomTestStringConvertible {
    /// The access level's name, in test names.
    public var testDescription: String { rawValue }
}
