import Foundation
import SkanCompiler
import SkanCore
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
        "schema Self version 1 flag a at bit 0 reserved bits 1...5 coarse { low otherwise }",
        "schema _ version 1 flag a at bit 0 reserved bits 1...5 coarse { low otherwise }",
        "schema R version 1 field self at bits 0...1 { a = 0  b = 1 } reserved bits 2...5 coarse { low otherwise }",
    ]

    /// The longest condition the checker allows (64 terms) type-checks like any other.
    static let longestCondition: String = {
        let terms = (0..<64).map { [$0 % 2 == 0 ? "a == x\($0 % 4)" : "a >= x1", "b", "not c"][$0 % 3] }
        let condition = stride(from: 0, to: 64, by: 2).map { "(\(terms[$0]) and \(terms[$0 + 1]))" }
            .joined(separator: " or ")
        return """
            schema Long version 1
            field a at bits 0...1 { x0 = 0  x1 = 1  x2 = 2  x3 = 3 }
            flag b at bit 2
            flag c at bit 3
            reserved bits 4...5
            coarse { high when \(condition)  low otherwise }
            lock when \(condition)
            """
    }()

    @Test(arguments: compiling + [longestCondition])
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
