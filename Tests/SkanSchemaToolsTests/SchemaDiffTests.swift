import Foundation
import SkanCore
import SkanSchema
import SkanTestSupport
import Testing

@testable import SkanCompiler
@testable import SkanSchemaTools

/// `SchemaDiff` and `VersionGate` on pairs made for each kind of change (Fixtures/Evolution, each a
/// change of Schemas/Shop.skan), with golden outputs in every format.
@Suite struct SchemaDiffTests {
    static let pairs = ["Widened", "Renamed", "CoarseAndLock", "Removed"]

    static func evolved(_ name: String) throws -> (schema: Schema, versionLine: Int) {
        let url = Paths.file("Tests/SkanCompilerTests/Fixtures/Evolution/\(name).skan")
        let result = SchemaCompiler.compile(try String(contentsOf: url, encoding: .utf8), path: name + ".skan")
        #expect(result.diagnostics.isEmpty, "\(name): \(result.diagnostics)")
        return (try #require(result.schema), try #require(result.versionLocation).line)
    }

    /// A schema from `Schemas/Shop.skan` with `replacements` made, which must all apply.
    static func shop(_ replacements: [(String, String)]) throws -> Schema {
        var text = try String(contentsOf: Paths.schema("Shop"), encoding: .utf8)
        for (old, new) in replacements {
            #expect(text.contains(old), "\(old)")
            text = text.replacingOccurrences(of: old, with: new)
        }
        let result = SchemaCompiler.compile(text)
        // Moving a case's code is what these tests do: the case-order warning it earns is expected.
        #expect(result.diagnostics.allSatisfy { $0.code == .caseOrder }, "\(result.diagnostics)")
        return try #require(result.schema)
    }

    @Test(arguments: pairs, SchemaDiff.Format.allCases)
    func matchesGolden(_ name: String, _ format: SchemaDiff.Format) throws {
        let diff = SchemaDiff(old: try shippedSchema("Shop"), new: try Self.evolved(name).schema)
        let ext = ["text": "txt", "markdown": "md", "json": "json"][format.rawValue]!
        try expectGolden(diff.rendered(format), at: "Tests/SkanSchemaToolsTests/Goldens/Diff/Shop-\(name).\(ext)")
    }

    @Test func aSchemaAgainstItselfChangesNothing() throws {
        for name in ["Shop", "EventFlags", "Subscription"] {
            let schema = try shippedSchema(name)
            let diff = SchemaDiff(old: schema, new: schema)
            #expect(!diff.changesMeaning)
            #expect(diff.values.isEmpty && diff.coarse.isEmpty && diff.locks.isEmpty)
            #expect(diff.layout.isEmpty && diff.renames.isEmpty && diff.descriptions.isEmpty)
        }
    }

    @Test func everyPairOfShippedSchemasIsAllChange() throws {
        // Different apps: nothing is the same field, so every value valid in either changes or (in)validates.
        let names = ["Shop", "EventFlags", "Subscription"]
        for old in names {
            for new in names where new != old {
                let (a, b) = (try shippedSchema(old), try shippedSchema(new))
                let diff = SchemaDiff(old: a, new: b)
                #expect(diff.changesMeaning)
                let validInEither = Schema.fineValueRange.filter {
                    (try? a.decode(fineValue: $0).get()) != nil || (try? b.decode(fineValue: $0).get()) != nil
                }
                #expect(diff.values.map(\.fineValue) == validInEither, "\(old) → \(new)")
            }
        }
    }

    /// Every fine value, checked against both decodes: a value is listed exactly when its validity or its
    /// state (in names after renames) differs.
    @Test(arguments: pairs)
    func everyFineValueIsAccountedFor(_ name: String) throws {
        let (old, new) = (try shippedSchema("Shop"), try Self.evolved(name).schema)
        let diff = SchemaDiff(old: old, new: new)
        for value in Schema.fineValueRange {
            let listed = diff.values.first { $0.fineValue == value }
            switch (old.decode(fineValue: value), new.decode(fineValue: value)) {
            case (.failure, .failure): #expect(listed == nil)
            case (.success, .failure): #expect(listed?.kind == .becameInvalid, "\(value)")
            case (.failure, .success): #expect(listed?.kind == .becameValid, "\(value)")
            case (.success, .success): #expect(listed == nil || listed?.kind == .changed, "\(value)")
            }
        }
    }

    @Test func renamesAndDescriptionsChangeNoValue() throws {
        let diff = SchemaDiff(old: try shippedSchema("Shop"), new: try Self.evolved("Renamed").schema)
        #expect(!diff.changesMeaning)
        #expect(diff.renames == ["`registered` is now `signedUp` (bit 0)", "`dayOneAction.browsed` is now `viewed`"])
        #expect(diff.descriptions == ["`signedUp`", "`dayOneAction`"])
    }

    @Test func aMovedCaseChangesTheValuesThatHoldIt() throws {
        let old = try shippedSchema("Shop")
        let new = try Self.shop([("low    = 1", "low    = 2"), ("medium = 2", "medium = 1")])
        let diff = SchemaDiff(old: old, new: new)
        // Bits 1...2 hold 1 or 2 in values 2...5 (+8 per dayOneAction case, +1 for registered).
        let expected = Schema.fineValueRange.filter { value in
            let tier = value >> 1 & 3
            return value < 32 && (tier == 1 || tier == 2)
        }
        #expect(diff.values.map(\.fineValue) == expected)
        #expect(diff.values.allSatisfy { $0.kind == .changed })
        #expect(diff.layout == ["`paymentTier`: low/medium moved from codes 1/2 to 2/1"])
        // Fine value 2 was low and is now medium; the coarse rules follow the names, so no coarse change is
        // reported for values whose meaning changed.
        #expect(diff.values.first?.old == "registered=false paymentTier=low dayOneAction=none")
        #expect(diff.values.first?.new == "registered=false paymentTier=medium dayOneAction=none")
        #expect(diff.coarse.isEmpty)
    }

    @Test func aBucketWithANewRangeChangesMeaning() throws {
        let text = """
            schema B
            version 1
            field revenue at bits 0...1 buckets amount {
              none = 0 0..<0.01
              small = 1 0.01..<5
              big = 2 5...
            }
            reserved bits 2...5
            coarse { low otherwise }
            """
        let a = try #require(SchemaCompiler.compile(text).schema)
        let b = try #require(
            SchemaCompiler.compile(
                text.replacingOccurrences(of: "<5", with: "<10")
                    .replacingOccurrences(of: "= 2 5...", with: "= 2 10...")
            ).schema)
        let diff = SchemaDiff(old: a, new: b)
        #expect(diff.values.map(\.fineValue) == [1, 2])
        #expect(diff.layout == ["`revenue`: `small` covers 0.01..<10, was 0.01..<5; `big` covers 10..., was 5..."])
    }

    @Test func aNewFlagOnAReservedBitKeepsTheOldValues() throws {
        let old = try shippedSchema("Shop")
        let new = try Self.shop([
            ("version 3", "version 4"),
            ("reserved bit 5 \"Zero in this layout; set it when the layout changes\"", "flag subscribed at bit 5"),
        ])
        let diff = SchemaDiff(old: old, new: new)
        #expect(diff.values.map(\.fineValue) == Array(32...63))
        #expect(diff.values.allSatisfy { $0.kind == .becameValid })
        #expect(diff.layout == ["`subscribed` added at bit 5", "reserved: bit 5 → none"])
    }

    @Test func theVersionGate() throws {
        let old = try shippedSchema("Shop")
        let at = SourceLocation(line: 4, column: 9, offset: 0)
        func codes(_ new: Schema) -> [String] {
            VersionGate.diagnostics(old: old, new: new, versionAt: at).map {
                "\($0.severity.rawValue) \($0.code.rawValue)"
            }
        }
        #expect(codes(old).isEmpty)
        #expect(codes(try Self.evolved("Renamed").schema).isEmpty)
        #expect(codes(try Self.evolved("CoarseAndLock").schema) == ["error version-unchanged"])
        #expect(codes(try Self.evolved("Widened").schema).isEmpty)
        #expect(codes(try Self.shop([("version 3", "version 2")])) == ["error version-decreased"])
        #expect(codes(try Self.shop([("version 3", "version 4")])) == ["warning version-bump-unneeded"])
        let unchanged = VersionGate.diagnostics(
            old: old, new: try Self.evolved("CoarseAndLock").schema, versionAt: at)
        #expect(unchanged.first?.location == at)
        #expect(unchanged.first?.notes.first?.message == "coarse values: window 1: high → low for 4, 12")
    }

    @Test func runsOfValues() {
        #expect(ValueRuns.text([]) == "")
        #expect(ValueRuns.text([5]) == "5")
        #expect(ValueRuns.text([7, 2, 3, 4, 10, 12, 13]) == "2...4, 7, 10, 12...13")
        #expect(ValueRuns.text(Array(0...63)) == "0...63")
    }
}

/// A version marked by a reserved bit with a code, as the diff shows it.
@Suite struct VersionMarkerDiffTests {
    @Test func theDiffShowsTheMarker() throws {
        let diff = SchemaDiff(old: try shippedSchema("Shop"), new: try compiledFixture("ShopMarked"))
        #expect(diff.layout == ["reserved: bit 5 → bit 5 = 1"])
        #expect(diff.values.filter { $0.kind == .becameInvalid }.map(\.fineValue) == Array(0...31))
        #expect(diff.values.filter { $0.kind == .becameValid }.map(\.fineValue) == Array(32...63))
    }
}
