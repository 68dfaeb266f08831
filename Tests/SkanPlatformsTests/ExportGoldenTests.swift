import Foundation
import SkanCompiler
import SkanCore
import SkanPlatforms
import SkanTestSupport
import Testing

/// The exports of the shipped schemas that export exactly, byte for byte (UPDATE_GOLDENS=1 rewrites them), and
/// the refusals of those that do not.
@Suite struct ExportGoldenTests {
    static func name(_ path: String) -> String {
        URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
    }

    @Test(arguments: FirstMatchListTests.exactSchemas)
    func ga4ExportMatchesGolden(_ path: String) throws {
        let export = SchemaExport(
            schema: try ShippedSchemas.compile(path), format: .ga4, options: .init(displayNames: true))
        #expect(export.diagnostics(lossy: false).allSatisfy { $0.severity != .error })
        try expectGolden(export.text, at: "Tests/SkanPlatformsTests/Goldens/\(Self.name(path)).ga4.json")
    }

    @Test(arguments: FirstMatchListTests.exactSchemas)
    func appReportingPackRowsMatchGolden(_ path: String) throws {
        let export = SchemaExport(
            schema: try ShippedSchemas.compile(path), format: .appReportingPack, options: .init(appID: "id1234567890"))
        try expectGolden(export.text, at: "Tests/SkanPlatformsTests/Goldens/\(Self.name(path)).arp.csv")
        let header = export.text.split(separator: "\r\n").first.map(String.init)
        #expect(
            header
                == "app_id,skan_mapped_event,skan_conversion_value,skan_event_count,skan_event_value_low,skan_event_value_high,skan_event_value_mean"
        )
    }

    /// The Google Ads export of the schema written for Google Ads' one mapping per value.
    @Test func googleAdsExportMatchesGolden() throws {
        let path = "Tests/SkanPlatformsTests/Fixtures/GoogleAdsExact.skan"
        let export = SchemaExport(
            schema: try ShippedSchemas.compile(path), format: .googleAds, options: .init(appID: "1234567890"))
        #expect(export.losses.isEmpty, "\(export.losses)")
        try expectGolden(export.text, at: "Tests/SkanPlatformsTests/Goldens/GoogleAdsExact.google-ads.json")
    }

    /// Every shipped schema that is not exact is refused with at least one located error.
    @Test func theOthersAreRefusedWithLocatedErrors() throws {
        let others = ShippedSchemas.all.filter { !FirstMatchListTests.exactSchemas.contains($0) }
        #expect(!others.isEmpty)
        for path in others {
            let errors = SchemaExport(schema: try ShippedSchemas.compile(path), format: .ga4, options: .init())
                .diagnostics(lossy: false).filter { $0.severity == .error }
            #expect(!errors.isEmpty, "\(path)")
            #expect(errors.allSatisfy { DiagnosticCode.exportCodes.contains($0.code) }, "\(path)")
        }
    }
}
