import Foundation
import SkanCompiler
import SkanCore
import SkanSchema
import Testing

/// Schemas whose names collide with Swift keywords, standard members and the generated code's own names:
/// each compiles warning-free (in both isolation modes), the collisions resolved by the generator.
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

    /// Names the generated code needs for itself, resolved by the generator rather than refused.
    static let resolved = [
        "schema R version 1 flag Self at bit 0 reserved bits 1...5 coarse { low otherwise }",
        "schema R version 1 flag Swift at bit 0 reserved bits 1...5 coarse { low otherwise }",
        "schema Swift version 1 flag a at bit 0 reserved bits 1...5 coarse { low otherwise }",
        "schema Self version 1 flag a at bit 0 reserved bits 1...5 coarse { low otherwise }",
        "schema _ version 1 flag a at bit 0 reserved bits 1...5 coarse { low otherwise }",
        "schema R version 1 field self at bits 0...1 { a = 0  b = 1 } reserved bits 2...5 coarse { low otherwise }",
        "schema Funnel version 1 field funnel at bits 0...1 { a = 0  b = 1 } reserved bits 2...5 coarse { low otherwise }",
        """
        schema R version 1
        event _
        event Event
        flag activity at bit 0
        field event at bits 1...2 { rawValue = 0  allCases = 1  _ = 2 }
        flag derive at bit 3
        flag Window_ at bit 4
        reserved bit 5
        coarse { high when _ and Event.count >= 2  low otherwise }
        """,
    ]

    /// The longest condition the checker allows (2,048 terms), over fields, type-checks like any other: long
    /// conditions are written as methods of statements.
    static let longestCondition: String = {
        let terms = (0..<2_048).map { [$0 % 2 == 0 ? "a == x\($0 % 4)" : "a >= x1", "b", "not c"][$0 % 3] }
        let condition = stride(from: 0, to: 2_048, by: 2).map { "(\(terms[$0]) and \(terms[$0 + 1]))" }
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

    /// The same over events, in a derived flag, a coarse rule and a lock, nested three deep.
    static let longestEventCondition: String = {
        let parts = (0..<512).map { index in
            "(e\(index % 7).count >= \(index % 5 + 1) and e\((index + 3) % 7).sum <= \(index % 90 + 1).5"
                + " and not (e\((index + 5) % 7) or e\((index + 1) % 7).sum >= \(index % 40 + 2)))"
        }
        let condition = parts.joined(separator: " or ")
        return """
            schema LongEvents version 1
            \((0..<7).map { "event e\($0) value USD" }.joined(separator: "\n"))
            flag spender at bit 0 when \(condition)
            reserved bits 1...5
            coarse { high when spender and (\(parts.prefix(300).joined(separator: " or ")))  low otherwise }
            lock when not (\(condition))
            """
    }()

    @Test(arguments: compiling + resolved + [longestCondition, longestEventCondition])
    func generatedCodeCompilesWithoutWarnings(_ text: String) throws {
        let result = SchemaCompiler.compile(text)
        let schema = try #require(result.schema, "\(result.diagnostics)")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "skanc-names-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Not named after the schema: swiftc names the module after a lone file, and a module `Self` or `Swift`
        // is a test artifact, not the generator's.
        let file = directory.appendingPathComponent("Generated.swift")
        try SwiftGenerator.generate(schema, options: .init(accessLevel: .public, sourceName: "names.skan")).write(
            to: file, atomically: true, encoding: .utf8)
        for isolation in [[], ["-default-isolation", "MainActor"]] {
            let (status, text) = try Swiftc.typecheck(isolation + [file.path])
            #expect(status == 0 && text.isEmpty, "\(isolation): \(text)")
        }
    }
}
