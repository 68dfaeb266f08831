import Foundation
import SkanCompiler
import SkanCore
import SkanSchema
import SkanTestSupport
import Testing

/// Builds a copy of Examples/ the way an app's build would, through the build-tool plugin: warning-free,
/// its output matches the library, a no-op rebuild runs no generator, an edited schema regenerates, and a
/// schema error fails the build with the schema's location.
@Suite(.serialized) struct ExamplesPackageTests {
    /// Runs `swift` in `directory`; returns the exit status and everything it printed.
    static func swift(_ arguments: [String], in directory: URL) throws -> (status: Int32, output: String) {
        let result = try CLI.run(
            arguments, executable: URL(fileURLWithPath: "/usr/bin/env"), prefix: ["swift"], in: directory)
        return (result.status, result.stdout + result.stderr)
    }

    static func overwriteInPlace(_ file: URL, with text: String) throws {
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
    }

    /// A copy of Examples/ whose dependency points at this checkout, so the test can edit its schemas.
    static func copyOfExamples() throws -> URL {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("skanc-examples-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        let examples = CLI.packageRoot.appendingPathComponent("Examples")
        try FileManager.default.copyItem(
            at: examples.appendingPathComponent("Sources"), to: copy.appendingPathComponent("Sources"))
        let manifest = try String(contentsOf: examples.appendingPathComponent("Package.swift"), encoding: .utf8)
        let pointed = manifest.replacingOccurrences(of: "path: \"..\"", with: "path: \"\(CLI.packageRoot.path)\"")
        #expect(pointed != manifest, "Examples/Package.swift no longer depends on \"..\"")
        try pointed.write(to: copy.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        return copy
    }

    @Test func examplesBuildRunAndRegenerateThroughThePlugin() throws {
        let package = try Self.copyOfExamples()
        defer { try? FileManager.default.removeItem(at: package) }

        let build = try Self.swift(["build", "-Xswiftc", "-warnings-as-errors"], in: package)
        #expect(build.status == 0, "\(build.output)")
        #expect(!build.output.contains("warning:"), "\(build.output)")

        let demo = try CLI.run([], executable: package.appendingPathComponent(".build/debug/ShopDemo"), in: package)
        #expect(demo.status == 0)
        let schema = try #require(
            SchemaCompiler.compile(
                try String(contentsOf: package.appendingPathComponent("Sources/ShopDemo/Shop.skan"), encoding: .utf8)
            ).schema)
        let state = try #require(schema.state(["registered": "true", "paymentTier": "low", "dayOneAction": "browsed"]))
        #expect(demo.stdout.contains("fine value: \(schema.fineValue(of: state))\n"))
        for window in ConversionWindow.allCases {
            let coarse = schema.coarseValue(of: state, window: window)!.rawValue
            #expect(
                demo.stdout.contains(
                    "window \(window): coarse \(coarse), lock \(schema.shouldLock(state, window: window))\n"))
        }
        #expect(demo.stdout.contains("decoded 42: not a Shop value: bit 5 is reserved\n"))
        // ShopDemo/Shop.skan and ShopDemo/Legacy/Shop.skan share a file name; each got its own output.
        #expect(demo.stdout.contains("legacy value 3 (version 2): registered true, purchased true\n"))

        let journey = try CLI.run(
            [], executable: package.appendingPathComponent(".build/debug/JourneyDemo"), in: package)
        #expect(journey.status == 0, "\(journey.stderr)")
        // Window 1 ends at hour 48 to the second, window 2 at hour 168, the last at hour 840.
        for line in [
            " 47:59:59  launches again                  1       (no update)\n",
            " 48:00:00  launches again                  2       17    medium  false\n",
            "167:59:59  launches again                  2       (no update)\n",
            "168:00:00  launches again                  3       21    high    false\n",
            "840:00:00  launches after the last window  -       (no update)\n",
        ] {
            #expect(journey.stdout.contains(line), "\(journey.stdout)")
        }
        #expect(
            journey.stdout.contains("8 updates sent through adAttributionKit\n8 updates sent through skAdNetwork\n"))
        // A target that depends on SkanRuntime alone names ConversionWindow and PerWindow.
        #expect(journey.stdout.contains("hour 200 is in window 3; window 1 ends at hour 48\n"))
        #expect(
            journey.stdout.contains(
                "re-engagement 5E1C0A77: window 1, fine 24\nre-engagement, 48 hours after the open: window 2\n2 re-engagement updates, all through adAttributionKit\n"
            ), "\(journey.stdout)")
        // Game.skan, a schema with events, generated by the plugin: the updater logs events and derives the fields.
        #expect(
            journey.stdout.contains("game  20:00:00  purchase(amount: 10.0)        window 1 fine 29 high lock false\n"))
        #expect(
            journey.stdout.hasSuffix("game  50:00:00  purchase(amount: 40.0)        window 2 fine 29 high lock true\n"))

        let attribution = try CLI.run(
            [], executable: package.appendingPathComponent(".build/debug/AttributionDemo"), in: package)
        #expect(attribution.status == 0, "\(attribution.stderr)")
        // The prompt waits for the app to become active; conversion values do not wait for the prompt.
        for line in [
            "  authorizer: the app is not active yet; waiting before asking\n2. Conversion values do not wait for the prompt\n  updater: fine value 1 sent\n3. The app becomes active\n  system: tracking prompt shown, the user allows\n",
            "  advertising identifier: 6D92078A-8246-4BA4-AE5B-76104861E7DC\n",
            "-> 404\n  client: not ready, asking again in 5 s\n",
            "  attributed: true, campaign 542370539, ad group 542317095, clicked 2020-04-08T17:17:00Z\n",
            "  asked again: the stored record, no request\n",
        ] {
            #expect(attribution.stdout.contains(line), "\(attribution.stdout)")
        }

        // SwiftPM may relink the tool once after a clean build; from then on a no-op build runs nothing.
        _ = try Self.swift(["build"], in: package)
        let noop = try Self.swift(["build"], in: package)
        #expect(noop.status == 0)
        #expect(!noop.output.contains("Generating Swift"), "\(noop.output)")

        let schemaFile = package.appendingPathComponent("Sources/ShopDemo/Shop.skan")
        let original = try String(contentsOf: schemaFile, encoding: .utf8)
        // Edited in place, as `echo >>` does; an atomic save (a new file) also makes SwiftPM relink skanc and
        // so regenerate every schema of the package.
        try Self.overwriteInPlace(schemaFile, with: original + "\n# edited\n")
        let edited = try Self.swift(["build"], in: package)
        #expect(edited.status == 0)
        #expect(edited.output.contains("Generating Swift from Shop.skan"), "\(edited.output)")
        #expect(!edited.output.contains("Generating Swift from Subscription.skan"), "\(edited.output)")
        #expect(!edited.output.contains("Generating Swift from Legacy/Shop.skan"), "\(edited.output)")

        try Self.overwriteInPlace(
            schemaFile,
            with: original.replacingOccurrences(of: "flag registered at bit 0", with: "flag registered at bit 9"))
        let broken = try Self.swift(["build"], in: package)
        #expect(broken.status != 0)
        #expect(
            broken.output.contains(
                "Shop.skan:6:24: error: bit 9 does not exist: fine values have bits 0...5 [bit-range]"),
            "\(broken.output)")
    }
}
