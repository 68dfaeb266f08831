import Foundation
import SkanCompiler
import SkanCore
import SkanSchema
import Testing

/// Every name a user might give, in every role the generated code gives it (the schema's type, a flag, a field
/// and its enum type, a case, an event), compiles warning-free: Swift's keywords go in backticks and the names
/// the generated code needs for itself are resolved by the generator (`SwiftNamePlan`), never refused.
@Suite struct NameCollisionCompileTests {
    /// Swift's keywords and contextual keywords, the standard library's common names, and every name the
    /// generated code declares for itself (members, nested types, methods, parameters and locals).
    static let names: [String] = [
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate", "func",
        "import", "init", "inout", "internal", "let", "nonisolated", "open", "operator", "package", "private",
        "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias", "var",
        "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if",
        "in", "repeat", "return", "switch", "throw", "where", "while", "Any", "as", "await", "false", "is", "nil",
        "self", "Self", "super", "throws", "true", "try", "Type", "Protocol", "some", "any", "async", "mutating",
        "get", "set", "willSet", "didSet", "lazy", "optional", "required", "convenience", "override", "final",
        "indirect", "weak", "unowned", "actor", "macro", "isolated", "sending", "each", "_", "__",
        "Swift", "Foundation", "String", "Int", "Double", "Bool", "Array", "Optional", "Error", "Hashable",
        "Sendable", "Codable", "Equatable", "Comparable", "Never", "Void", "AnyObject", "Character", "Result",
        "fineValue", "coarseValue", "shouldLock", "schemaVersion", "schemaName", "hashValue", "hash", "description",
        "CoarseValue", "FineValueError", "Window", "Event", "Activity", "activity", "event", "log", "advance",
        "restore", "derive", "decodeCase", "index", "amount", "allCases", "rawValue", "lhs", "rhs", "newSelf",
        "count", "hours", "days", "counts", "sums", "sources", "windowStart", "first", "second", "third", "number",
        "postbackSequenceIndex", "low", "medium", "high", "outOfRange", "reservedBitSet", "unusedBitSet",
        "undefinedCode", "value", "code", "field", "window", "hour", "Case", "RawValue", "AllCases", "activity_",
        "Activity_",
    ]

    /// The schemas that put every name in every role: flags and fields six to a schema (each reads an event, so
    /// that `Event`, `Activity` and `activity` are the generated code's too), cases 64 to a field, events all in
    /// one schema, and each name as the schema's own type, with a field whose type would take the same name.
    static let schemas: [String] = {
        var schemas: [String] = []
        // As flags and fields: every name whose table column no output or engine has (those are refused for
        // their columns, which `columnsAreTheOnlyReason` checks), six a schema with distinct columns, once with
        // the first three as flags and once as fields.
        var groups: [[String]] = []
        for name in names where !refusedColumns.contains(name) {
            let column = ColumnNames.snakeCase(name)
            if let index = groups.firstIndex(where: { $0.count < 6 && !$0.map(ColumnNames.snakeCase).contains(column) })
            {
                groups[index].append(name)
            } else {
                groups.append([name])
            }
        }
        for (index, group) in groups.enumerated() {
            for flagsFirst in [true, false] {
                let lines = group.enumerated().map { bit, name in
                    (bit < 3) == flagsFirst
                        ? "flag \(name) at bit \(bit)" : "field \(name) at bit \(bit) { no = 0  yes = 1 }"
                }
                schemas.append(
                    (["schema Roles\(index)\(flagsFirst ? "a" : "b") version 1", "event zzPing"] + lines
                        + (group.count..<6).map { "reserved bit \($0)" }
                        + ["coarse { high when zzPing  low otherwise }"]).joined(separator: "\n"))
            }
        }
        for (index, start) in stride(from: 0, to: names.count, by: 64).enumerated() {
            let cases = names[start..<min(start + 64, names.count)].enumerated().map { "\($1) = \($0)" }
            schemas.append(
                """
                schema Cases\(index) version 1
                field c at bits 0...5 { \(cases.joined(separator: "  ")) }
                coarse { high when c >= \(cases.count > 1 ? names[start + 1] : names[start])  low otherwise }
                """)
        }
        schemas.append(
            (["schema Events version 1"] + names.map { "event \($0)" }
                + ["flag any_ at bit 0", "reserved bits 1...5", "coarse { high when \(names[0])  low otherwise }"])
                .joined(separator: "\n"))
        for name in names {
            let lower = name.prefix(1).lowercased() + name.dropFirst()
            schemas.append(
                """
                schema \(name) version 1
                field \(refusedColumns.contains(lower) ? "zzField" : lower) at bit 0 { no = 0  yes = 1 }
                reserved bits 1...5
                coarse { low otherwise }
                """)
        }
        return schemas
    }()

    /// The names refused as flags and fields, for the table column they would make (`fine_value`, `window`,
    /// `true`...): a reason of the tables and engines, never of Swift.
    static let refusedColumns: Set<String> = Set(
        names.filter { name in
            SchemaCompiler.compile(
                "schema T version 1 flag \(name) at bit 0 reserved bits 1...5 coarse { low otherwise }"
            )
            .schema == nil
        })

    @Test func columnsAreTheOnlyReason() {
        #expect(Self.refusedColumns.count < 12, "\(Self.refusedColumns.sorted())")
        for name in Self.refusedColumns {
            let diagnostics = SchemaCompiler.compile(
                "schema T version 1 flag \(name) at bit 0 reserved bits 1...5 coarse { low otherwise }"
            ).diagnostics
            #expect(diagnostics.allSatisfy { $0.code == .name && $0.message.contains("would make the column") })
        }
    }

    @Test func everyNameInEveryRoleIsAcceptedAndCompiles() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "skanc-collisions-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // One file, each schema's code in a namespace of its own (two schemas may resolve to the same type
        // name): swiftc type-checks one file in one job, where many files would each parse all the others.
        var source = ""
        for (index, text) in Self.schemas.enumerated() {
            let result = SchemaCompiler.compile(text)
            let schema = try #require(result.schema, "\(text)\n\(result.diagnostics.map(\.message))")
            let code = SwiftGenerator.generate(schema, options: .init(accessLevel: .public, sourceName: "n.skan"))
            source += "enum Namespace\(index) {\n\(code)\n}\n"
        }
        let file = directory.appendingPathComponent("Generated.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        let files = [file.path]
        for isolation in [[], ["-default-isolation", "MainActor"]] {
            let (status, text) = try Swiftc.typecheck(isolation + files)
            #expect(status == 0 && text.isEmpty, "\(isolation): \(text.prefix(4_000))")
        }
    }
}
