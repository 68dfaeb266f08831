import Foundation
import SkanTestSupport
import Testing

/// The HTML decoding page in a real browser: headless Chromium (Debian's package, installed by .ci/run) renders
/// it at a laptop's 1700 x 1100 through Scripts/table-screenshot.sh, the script that makes the README's image.
@Suite struct HTMLPageTests {
    @Test(arguments: ["Schemas/Shop.skan", "Schemas/Subscription.skan"])
    func aBrowserRendersThePage(_ schema: String) throws {
        let probe = try CLI.run(["chromium", "--version"], executable: URL(fileURLWithPath: "/usr/bin/env"))
        try #require(
            probe.status == 0,
            "chromium is not installed; install it with `apt-get install -y chromium`, or run `bash .ci/run`")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("skanc-page-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let png = directory.appendingPathComponent("page.png")
        let script = CLI.packageRoot.appendingPathComponent("Scripts/table-screenshot.sh").path
        let result = try ChildProcess.run(
            try ChildProcess.onPath("bash"), [script, schema, png.path],
            environment: ProcessInfo.processInfo.environment.merging(["SKANC": CLI.executable.path]) { $1 })
        #expect(result.status == 0, "\(result.stderr)")
        let bytes = try [UInt8](Data(contentsOf: png))
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        // IHDR: width and height, big-endian, at bytes 16...23.
        let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
        #expect(width == 1700 && height == 1100)
        #expect(bytes.count > 20_000, "a blank page compresses to far less")
    }

    @Test func everyTableScrollsInsideItsOwnBox() throws {
        let page = try CLI.run(["table", "Schemas/Subscription.skan", "--format", "html"]).stdout
        let tables = page.components(separatedBy: "<table>").count - 1
        #expect(tables == 2)
        #expect(page.components(separatedBy: "<div class=\"scroll\">\n<table>").count - 1 == tables)
        #expect(page.contains(".scroll { max-width: 100%; overflow-x: auto; }"))
    }
}
