import Foundation
import SkanCore
import SkanSchema
import SkanTestSupport
import Testing

@testable import SkanCompiler

/// Versions live together: reserved bits with a code mark a version, and `LiveVersions` proves versions
/// apart or names the values they share.
@Suite struct LiveVersionsTests {
    static func fixture(_ name: String) throws -> Schema {
        let url = Paths.file("Tests/SkanCompilerTests/Fixtures/\(name).skan")
        return try #require(SchemaCompiler.compile(try String(contentsOf: url, encoding: .utf8)).schema)
    }

    @Test func aMarkedVersionSetsItsBitInEveryValue() throws {
        let marked = try Self.fixture("ShopMarked")
        #expect(marked.reservedBits.map(\.text) == ["bit 5 = 1"])
        #expect(marked.fineValue(of: SchemaState(schema: marked)) == 32)
        for value in Schema.fineValueRange {
            switch marked.decode(fineValue: value) {
            case .success(let state):
                #expect(value >= 32)
                #expect(marked.fineValue(of: state) == value)
            case .failure(let error):
                #expect(value < 32)
                #expect(
                    error == .reservedBitClear(bit: 5, reason: "Set in every value of version 4; clear in version 3"))
                #expect(error.code == "reserved-bit")
            }
        }
    }

    @Test func aCodeMustFitItsBits() {
        #expect(
            summaries(
                "schema T\nversion 1\nflag a at bit 0\nreserved bits 1...2 = 4\nreserved bits 3...5\ncoarse { low otherwise }"
            )
                == ["4:23 error case-width"])
        #expect(
            summaries(
                "schema T\nversion 1\nflag a at bit 0\nreserved bits 1...2 = 3\nreserved bits 3...5\ncoarse { low otherwise }"
            )
            .isEmpty)
    }

    @Test func markedVersionsAreProvedApart() throws {
        let live = LiveVersions([try Self.fixture("ShopMarked"), try shippedSchema("Shop")])
        #expect(live.schemas.map(\.version) == [3, 4])
        #expect(live.overlaps.isEmpty)
        #expect(live.diagnostics(versionLocations: [:]).isEmpty)
        #expect(live.owner(of: 11) == .version(try shippedSchema("Shop")))
        #expect(live.owner(of: 43) == .version(try Self.fixture("ShopMarked")))
        #expect(live.owner(of: 64) == .none)
    }

    @Test func unmarkedVersionsShareValuesAndAreReported() throws {
        let live = LiveVersions([try shippedSchema("Shop"), try Self.fixture("ShopV4")])
        #expect(live.overlaps.map(\.fineValue) == Array(0...31))
        #expect(live.owner(of: 11) == .ambiguous([3, 4]))
        #expect(live.owner(of: 43) == .version(try Self.fixture("ShopV4")))
        let at = SourceLocation(line: 5, column: 9, offset: 0)
        let diagnostics = live.diagnostics(versionLocations: [4: at])
        #expect(diagnostics.map(\.code) == [.versionOverlap])
        #expect(diagnostics.first?.location == at)
        #expect(diagnostics.first?.message.hasSuffix("cannot be told apart: 0...31") == true)
        let same = LiveVersions([try shippedSchema("Shop"), try shippedSchema("Shop")])
        #expect(same.diagnostics(versionLocations: [:]).first?.message.hasPrefix("two schemas have version 3") == true)
    }
}
