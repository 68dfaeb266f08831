import SkanCompiler
import SkanCore
import SkanPostbacks
import SkanTestSupport
import Testing

@testable import SkanReports

/// The JSON report writes its windows from one template cut at each count (`WindowTemplate`). Each window
/// it writes equals the window's own tree of values rendered at the same depth, for every shipped schema's
/// fields and cases.
@Suite struct WindowTemplateTests {
    @Test(arguments: ReportGroundTruthTests.schemas)
    func templateWindowsAreTheTreeRendered(_ path: String) throws {
        let schema = try ShippedSchemas.compile(path)
        let synthetic = ReportGroundTruthTests.postbacks(schema, seed: 3, framework: .skAdNetwork)
        let report = try ReportGroundTruthTests.report(synthetic.lines, schema)
        let windows = report.groups.flatMap(\.windows)
        #expect(windows.count >= 4 && windows.contains { $0.withFineValue > 0 })
        let template = PostbackReport.WindowTemplate(windows.first)
        for window in windows {
            var counts = window.countsInOrder.map(JSONValue.integer).makeIterator()
            var tree: [UInt8] = []
            PostbackReport.json(window, counts: &counts).render(
                into: &tree, indent: PostbackReport.WindowTemplate.indent)
            #expect(counts.next() == nil, "every count has its member")
            guard case .rendered(let written) = template.json(window) else {
                Issue.record("a template writes rendered text")
                continue
            }
            #expect(String(decoding: written, as: UTF8.self) == String(decoding: tree, as: UTF8.self))
        }
        // And the report's JSON, windows included, is one document with each window's counts where they belong.
        var reader = JSONReader(bytes: report.jsonBytes, maximumDepth: 16, tooDeep: "too deep")
        let document = try reader.document()
        guard case .array(let groups) = document["groups"] else {
            Issue.record("the report lists its groups")
            return
        }
        #expect(groups.count == report.groups.count)
        for (parsed, group) in zip(groups, report.groups) {
            for window in group.windows {
                guard case .number(let postbacks) = parsed["by_window"]?[String(window.number)]?["postbacks"] else {
                    Issue.record("window \(window.number) has its postbacks")
                    continue
                }
                #expect(Int(postbacks) == window.postbacks)
            }
        }
    }

    /// The JSON written group by group is the report's whole tree rendered at once, byte for byte, whatever the
    /// pieces it comes in.
    @Test(arguments: ReportGroundTruthTests.schemas)
    func theStreamedJSONIsTheTreeRendered(_ path: String) throws {
        let schema = try ShippedSchemas.compile(path)
        let synthetic = ReportGroundTruthTests.postbacks(schema, seed: 5, framework: .skAdNetwork)
        let report = try ReportGroundTruthTests.report(synthetic.lines, schema)
        #expect(report.groups.count > 1)
        let windows = PostbackReport.WindowTemplate(report.groups.first?.windows.first)
        var tree: [UInt8] = []
        report.jsonRoot(groups: .array(report.groups.map { PostbackReport.json($0, windows) }))
            .render(into: &tree, indent: 0)
        tree.append(0x0A)
        var pieces = 0
        var streamed: [UInt8] = []
        report.writeJSON {
            pieces += 1
            streamed += $0
        }
        #expect(pieces >= 3)
        #expect(String(decoding: streamed, as: UTF8.self) == String(decoding: tree, as: UTF8.self))
    }
}
