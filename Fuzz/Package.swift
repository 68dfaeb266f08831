// swift-tools-version: 6.1
import Foundation
import PackageDescription

// The libFuzzer targets, built against the real modules of the package above (as an app depends on them).
// Fuzz/run.sh builds them with AddressSanitizer and libFuzzer's coverage, optimized and not, links libFuzzer
// without its `main` (each target's entry point runs libFuzzer's driver), and runs them. `-enable-testing`: the
// targets reach internals, the parsers' own entry points, through `@testable import`.
// FuzzGenerated needs the generated decoders, which run.sh writes into Sources/FuzzedSchemas with
// `skanc generate` before it builds; without them the target is left out.
let generatedSchemas = Context.packageDirectory + "/Sources/FuzzedSchemas/Shop.swift"
let haveGeneratedSchemas = FileManager.default.fileExists(atPath: generatedSchemas)

func skanc(_ product: String) -> Target.Dependency { .product(name: product, package: "skanc") }

var targets: [Target] = [
    // libFuzzer's driver, declared for Swift; each target's entry point runs it with its check.
    .target(name: "FuzzerDriver"),
    .target(name: "FuzzSupport", dependencies: ["FuzzerDriver"]),
    .executableTarget(
        name: "FuzzSchema",
        dependencies: [
            "FuzzSupport", skanc("SkanCore"), skanc("SkanCompiler"), skanc("SkanSchema"), skanc("SkanSchemaTools"),
        ]),
    .executableTarget(
        name: "FuzzPostbacks",
        dependencies: [
            "FuzzSupport", skanc("SkanCore"), skanc("SkanCompiler"), skanc("SkanSchema"), skanc("SkanSchemaTools"),
            skanc("SkanPostbacks"),
            skanc("SkanReports"),
        ]),
    .executableTarget(
        name: "FuzzSignatures", dependencies: ["FuzzSupport", skanc("SkanCrypto"), skanc("SkanPostbacks")]),
    .executableTarget(name: "FuzzCSV", dependencies: ["FuzzSupport", skanc("SkanCore")]),
    .executableTarget(name: "FuzzPlist", dependencies: ["FuzzSupport", skanc("SkanInfoPlist")]),
    .executableTarget(name: "FuzzStrings", dependencies: ["FuzzSupport", skanc("SkanInfoPlist")]),
    .executableTarget(
        name: "FuzzJourney",
        dependencies: ["FuzzSupport", skanc("SkanCompiler"), skanc("SkanSchema"), skanc("SkanSchemaTools")]),
    .executableTarget(
        name: "FuzzGA4",
        dependencies: [
            "FuzzSupport", skanc("SkanCore"), skanc("SkanCompiler"), skanc("SkanSchema"), skanc("SkanSchemaTools"),
            skanc("SkanPlatforms"),
        ]),
    .executableTarget(
        name: "FuzzMeta",
        dependencies: [
            "FuzzSupport", skanc("SkanCore"), skanc("SkanCompiler"), skanc("SkanSchema"), skanc("SkanSchemaTools"),
            skanc("SkanPlatforms"),
        ]),
    .executableTarget(name: "FuzzHTTP", dependencies: ["FuzzSupport", skanc("SkanHTTP")]),
    .executableTarget(name: "FuzzMix", dependencies: ["FuzzSupport", skanc("SkanPostbacks")]),
    .executableTarget(name: "FuzzTimes", dependencies: ["FuzzSupport", skanc("SkanPostbacks")]),
    .executableTarget(name: "FuzzCost", dependencies: ["FuzzSupport", skanc("SkanCore"), skanc("SkanReports")]),
    .executableTarget(
        name: "FuzzArtifact",
        dependencies: [
            "FuzzSupport", skanc("SkanCore"), skanc("SkanCompiler"), skanc("SkanSchema"), skanc("SkanSchemaArtifact"),
        ]),
    .executableTarget(
        name: "FuzzGoogleAds",
        dependencies: [
            "FuzzSupport", skanc("SkanCore"), skanc("SkanCompiler"), skanc("SkanSchema"), skanc("SkanSchemaTools"),
            skanc("SkanPlatforms"),
        ]),
    .executableTarget(
        name: "FuzzLSP", dependencies: ["FuzzSupport", skanc("SkanCore"), skanc("SkanLanguageServer")]),
    .executableTarget(
        name: "FuzzExport",
        dependencies: [
            "FuzzSupport", skanc("SkanCore"), skanc("SkanCompiler"), skanc("SkanSchema"), skanc("SkanPlatforms"),
        ]
    ),
]
if haveGeneratedSchemas {
    targets += [
        .target(name: "FuzzedSchemas"),
        .executableTarget(
            name: "FuzzGenerated",
            dependencies: [
                "FuzzSupport", skanc("SkanCore"), skanc("SkanCompiler"), skanc("SkanSchema"), "FuzzedSchemas",
            ]),
    ]
}

let package = Package(
    name: "SkancFuzzing",
    platforms: [.macOS(.v10_15)],
    dependencies: [.package(name: "skanc", path: "..")],
    targets: targets,
    swiftLanguageModes: [.v6]
)
