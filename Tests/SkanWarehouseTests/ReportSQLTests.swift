import SkanCompiler
import SkanPostbacks
import SkanSchema
import SkanTestSupport
import Testing

@testable import SkanWarehouse

/// The report's views as text, per engine: what `ReportSQLTests` in the CLI tests then runs on the engines.
struct ReportSQLTextTests {
    static func sql(_ dialect: WarehouseDialect, by groupings: [PostbackGrouping] = [.campaign]) throws -> String {
        ReportSQL(versions: LiveVersions([try shippedSchema("Shop")]), dialect: dialect, groupings: groupings).render()
    }

    /// Each view is dropped in reverse order (the later ones read the earlier) and created in order.
    @Test(arguments: WarehouseDialect.allCases)
    func everyViewIsDroppedThenCreatedInOrder(_ dialect: WarehouseDialect) throws {
        let sql = try Self.sql(dialect)
        var created: [String] = []
        var dropped: [String] = []
        for line in sql.split(separator: "\n") {
            for view in ReportSQL.views {
                let name = dialect.identifier(view)
                if line == "CREATE VIEW \(name) AS" { created.append(view) }
                if line == "DROP VIEW IF EXISTS \(name);" { dropped.append(view) }
            }
        }
        #expect(created == ReportSQL.views)
        #expect(dropped == ReportSQL.views.reversed())
    }

    @Test(arguments: WarehouseDialect.allCases)
    func theSameInputGivesTheSameBytes(_ dialect: WarehouseDialect) throws {
        #expect(
            try Self.sql(dialect, by: [.campaign, .framework]) == (try Self.sql(dialect, by: [.campaign, .framework])))
    }

    @Test func theKeyColumnsFollowTheGroupings() throws {
        let versions = LiveVersions([try shippedSchema("Shop")])
        let byCampaign = ReportSQL(versions: versions, dialect: .duckdb, groupings: [.campaign, .countryCode])
        #expect(byCampaign.keyColumns == ["campaign_column", "campaign", "country_code"])
        let bySource = ReportSQL(versions: versions, dialect: .duckdb, groupings: [.sourceIdentifier])
        #expect(bySource.keyColumns == ["source_identifier"])
    }

    @Test func theHeaderSaysWhatTheFileCounts() throws {
        let sql = try Self.sql(.postgres, by: [.campaign, .framework])
        #expect(sql.hasPrefix("-- The figures of `skanc report --format json` over decoded_postbacks, for postgres, "))
        #expect(sql.contains("grouped by campaign, framework."))
    }
}
