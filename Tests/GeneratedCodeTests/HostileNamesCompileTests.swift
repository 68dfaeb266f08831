import Foundation
import SkanCompiler
import Testing

/// Schemas whose names collide with Swift keywords, standard members and the generated code's own names:
/// each either compiles warning-free (in both isolation modes) or is refused by the checker with `name`.
@Suite struct HostileNamesCompileTests {
    static let compiling = [
        """
        schema Any version 1
        flag hash at bit 0
        flag Selfish at bit 1
        flag super at bit 2
        field rawValue at bits 3...4 { self = 0  Self = 1  super = 2  none = 3 }
        field description at bit 5 { case = 0  default = 1 }
        coarse { high when hash and not Selfish  medium when rawValue >= Self or description == default  low otherwise }
        """,
        """
        schema Names version 1
        flag Swifty at bit 0
        flag FineValueError at bit 1
        flag inout at bit 2
        field level at bits 3...4 { none = 0  some = 1 }
        flag var at bit 5
        coarse { high when Swifty and level == some  medium when inout or var  low otherwise }
        lock when not FineValueError
        """,
    ]

    static let refused = [
        "schema R version 1 flag Self at bit 0 reserved bits 1...5 coarse { low otherwise }",
        "schema R version 1 flag Swift at bit 0 reserved bits 1...5 coarse { low otherwise }",
        "schema Swift version 1 flag a at bit 0 reserved bits 1...5 coarse { low otherwise }",
    ]

    @Test(arguments: compiling)
    func generatedCodeCompilesWithoutWarnings(_ text: String) throws {
        let result = SchemaCompiler.compile(text)
        let schema = try #require(result.schema, "\(result.diagnostics)")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "skanc-names-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("\(schema.name).swift")
        try SwiftGenerator.generate(schema, options: .init(accessLevel: .public, sourceName: "names.skan")).write(
            to: file, atomically: true, encoding: .utf8)
        for isolation in [[], ["-default-isolation", "MainActor"]] {
            let (status, text) = try Swiftc.typecheck(isolation + [file.path])
            #expect(status == 0 && text.isEmpty, "\(isolation): \(text)")
        }
    }

    @Test(arguments: refused)
    func namesThatWouldBreakTheGeneratedCodeAreRefused(_ text: String) {
        #expect(SchemaCompiler.compile(text).diagnostics.map(\.code) == [.name])
    }
}
