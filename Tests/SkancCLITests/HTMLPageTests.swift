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

/// `skanc preview` in its four formats, and its page in a real browser.
@Suite struct PreviewCommandTests {
    @Test func jsonIsTwelveCellsOfTheInterface() throws {
        let result = try CLI.run(["preview", "Schemas/Shop.skan", "--format", "json"])
        #expect(result.status == 0)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(root["schema"] as? String == "Shop")
        let cells = try #require(root["cells"] as? [[String: Any]])
        #expect(cells.count == 12)
        for cell in cells {
            #expect(
                Set(cell.keys).isSuperset(of: [
                    "window", "tier", "postback", "carries", "source_identifier_digits", "fields",
                ]))
            let fields = try #require(cell["fields"] as? [String: String])
            #expect(Set(fields.keys) == ["registered", "paymentTier", "dayOneAction"])
        }
        let zeroLater = cells.first { $0["window"] as? Int == 2 && $0["tier"] as? Int == 0 }
        #expect(zeroLater?["postback"] as? Bool == false)
        #expect(zeroLater?["source_identifier_digits"] is NSNull)
    }

    @Test func everyFormatWritesAndBadOnesAreUsageErrors() throws {
        for format in ["text", "markdown", "html", "json"] {
            let result = try CLI.run(["preview", "Schemas/Game.skan", "--format", format])
            #expect(result.status == 0 && !result.stdout.isEmpty && result.stderr.isEmpty, "\(format)")
        }
        #expect(try CLI.run(["preview", "Schemas/Game.skan", "--format", "pdf"]).status == 64)
        #expect(try CLI.run(["preview"]).status == 64)
        #expect(try CLI.run(["preview", "missing.skan"]).status == 1)
    }

    @Test func aBrowserRendersThePreview() throws {
        let probe = try CLI.run(["chromium", "--version"], executable: URL(fileURLWithPath: "/usr/bin/env"))
        try #require(
            probe.status == 0,
            "chromium is not installed; install it with `apt-get install -y chromium`, or run `bash .ci/run`")
        let directory = try TemporaryDirectory()
        let png = directory.url.appendingPathComponent("preview.png")
        let script = CLI.packageRoot.appendingPathComponent("Scripts/table-screenshot.sh").path
        let result = try ChildProcess.run(
            try ChildProcess.onPath("bash"), [script, "Schemas/Game.skan", png.path, "1400", "800"],
            environment: ProcessInfo.processInfo.environment.merging([
                "SKANC": CLI.executable.path, "SKANC_PAGE": "preview",
            ]) { $1 })
        #expect(result.status == 0, "\(result.stderr)")
        let bytes = try [UInt8](Data(contentsOf: png))
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(bytes[16..<20].reduce(0) { $0 << 8 | Int($1) } == 1400)
        #expect(bytes.count > 20_000, "a blank page compresses to far less")
        let page = try CLI.run(["preview", "Schemas/Game.skan", "--format", "html"]).stdout
        #expect(page.components(separatedBy: "<td class=\"none-sent\">").count - 1 == 2)
        #expect(!page.contains("<script"))
    }
}
