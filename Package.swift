// swift-tools-version: 6.1
import PackageDescription

// One module per job, dependencies only down (docs/Architecture.md draws them):
//   SkanCore ← SkanCompiler ← SkanPostbacks ← SkanReports ← SkanWarehouse;  SkanReports ← SkanReceiver
//   SkanCompiler ← SkanSchemaTools (the schema author's tools) ← SkanLanguageServer;  SkanCompiler ← SkanPlatforms
//   SkanCore ← SkanInfoPlist, SkanAppleAds;  SkanCrypto ← SkanPostbacks
//   SkanCore ← SkanRuntime, SkanTracking;  SkanAppleAds ← SkanAppleAdsClient  (what apps link: three products)
//   skanc (every library) and skanc-generate (the compiler only, the plugin's tool) are thin shells.
// Imports say what a file uses: a member is visible only through an import of its module, an import is
// internal unless marked public, and an existential is spelled `any`.
let strictImports: [SwiftSetting] = [
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "skanc",
    // The floors the code needs: Swift concurrency (the runtime's actor and async sends) is there from
    // macOS 10.15 and iOS 13. Newer Apple APIs are called behind `#available` checks (README, "Platform
    // support"); PortabilityTests keeps both true.
    platforms: [.macOS(.v10_15), .iOS(.v13)],
    products: [
        .library(name: "SkanCore", targets: ["SkanCore"]),
        .library(name: "SkanSchema", targets: ["SkanSchema"]),
        .library(name: "SkanCompiler", targets: ["SkanCompiler"]),
        .library(name: "SkanSchemaTools", targets: ["SkanSchemaTools"]),
        .library(name: "SkanLanguageServer", targets: ["SkanLanguageServer"]),
        .library(name: "SkanCrypto", targets: ["SkanCrypto"]),
        .library(name: "SkanSchemaArtifact", targets: ["SkanSchemaArtifact"]),
        .library(name: "SkanPostbacks", targets: ["SkanPostbacks"]),
        .library(name: "SkanReports", targets: ["SkanReports"]),
        .library(name: "SkanWarehouse", targets: ["SkanWarehouse"]),
        .library(name: "SkanPlatforms", targets: ["SkanPlatforms"]),
        .library(name: "SkanInfoPlist", targets: ["SkanInfoPlist"]),
        .library(name: "SkanAppleAds", targets: ["SkanAppleAds"]),
        .library(name: "SkanHTTP", targets: ["SkanHTTP"]),
        // What apps link, one product per job, so that an app links (and answers the App Store's questions for)
        // only what it uses: conversion values (StoreKit, AdAttributionKit), tracking authorization
        // (AppTrackingTransparency, AdSupport, UIKit), Apple Ads attribution (AdServices).
        .library(name: "SkanRuntime", targets: ["SkanRuntime"]),
        .library(name: "SkanRemoteSchema", targets: ["SkanRemoteSchema"]),
        .library(name: "SkanTracking", targets: ["SkanTracking"]),
        .library(name: "SkanAppleAdsClient", targets: ["SkanAppleAdsClient"]),
        .executable(name: "skanc", targets: ["skanc"]),
        .plugin(name: "SkancPlugin", targets: ["SkancPlugin"]),
    ],
    targets: [
        // What every stage shares: source locations, diagnostics and their printer, text escaping (CSV, JSON,
        // terminal), exact JSON integers, and the vocabulary (coarse values, conversion windows). No
        // Foundation, no C library.
        // What apps and tools both name: conversion windows, coarse values, tracking authorization, the sleeper.
        // The app products see these and nothing tool-side; SkanCore re-exports them for the tools.
        .target(name: "SkanVocabulary", swiftSettings: strictImports),
        .target(name: "SkanCore", dependencies: ["SkanVocabulary"], swiftSettings: strictImports),
        // The schema model and its reference semantics (state, fine and coarse value, lock, events, amounts,
        // time, running activity, live versions): what every reader of postbacks and the app's interpreter
        // need, without the compiler. No I/O, no Foundation, no C library.
        .target(name: "SkanSchema", dependencies: ["SkanCore"], swiftSettings: strictImports),
        // The schema compiler: lexer, parser, checker and the Swift generator: what a build needs. No I/O, no
        // Foundation, no C library.
        .target(name: "SkanCompiler", dependencies: ["SkanCore", "SkanSchema"], swiftSettings: strictImports),
        // What the command line shows about schemas: decoding tables, value explanations, diffs, the version
        // gate, versions live together, and the formatter. No I/O, no Foundation, no C library.
        .target(
            name: "SkanSchemaTools", dependencies: ["SkanCore", "SkanCompiler", "SkanSchema", "SkanSchemaArtifact"],
            swiftSettings: strictImports),
        // `skanc lsp`'s server as a value: the base protocol's framing, JSON-RPC, and the compiler's diagnostics
        // and formatter in the protocol's terms (UTF-16 positions).
        .target(
            name: "SkanLanguageServer", dependencies: ["SkanCore", "SkanCompiler", "SkanSchema", "SkanSchemaTools"],
            swiftSettings: strictImports),
        // SHA-256, P-256 and P-192 arithmetic, ECDSA verification and DER: what postback signatures need.
        .target(name: "SkanCrypto", swiftSettings: strictImports),
        // A compiled schema as one canonical JSON file (the artifact), read back into the compiler's model:
        // what schemas over the air publish and apps read. No I/O, no Foundation.
        .target(
            name: "SkanSchemaArtifact", dependencies: ["SkanCore", "SkanSchema", "SkanCrypto"],
            swiftSettings: strictImports),
        // Postback files: Apple's rules per version, streaming and multi-threaded reading, decoding with a
        // schema, verification, merging and the rows written.
        .target(
            name: "SkanPostbacks", dependencies: ["SkanCore", "SkanSchema", "SkanCrypto", "SkanFiles"],
            swiftSettings: strictImports),
        // Reports on decoded postbacks: per campaign and window, the null rate, the cases, the coarse values and
        // revenue as range arithmetic, in JSON, CSV, Markdown and one self-contained HTML page with SVG charts.
        .target(
            name: "SkanReports", dependencies: ["SkanCore", "SkanSchema", "SkanPostbacks"],
            swiftSettings: strictImports),
        // The same decoding, and the same report, as SQL views for the engines analysts load postbacks into.
        .target(
            name: "SkanWarehouse",
            dependencies: ["SkanCore", "SkanSchema", "SkanPostbacks", "SkanReports"],
            swiftSettings: strictImports),
        // The schema in ad platforms' own terms: GA4's first-match lists and the App Reporting Pack's rows, exact
        // or refused with what cannot be said. No I/O, no Foundation.
        .target(
            name: "SkanPlatforms", dependencies: ["SkanCore", "SkanCompiler", "SkanSchema"],
            swiftSettings: strictImports),
        // An app's Info.plist: reading (XML and binary, bounded), the attribution keys' checks, and merging ad
        // network IDs.
        .target(name: "SkanInfoPlist", dependencies: ["SkanCore"], swiftSettings: strictImports),
        // Apple Ads attribution records in one shape (the AdServices API's and the iAd framework's), read from
        // JSON, and their rows: for the runtime's client and for `skanc attribution`. Foundation only.
        .target(name: "SkanAppleAds", dependencies: ["SkanCore"], swiftSettings: strictImports),
        // The command line: options declared once (parsing, usage and help derive from them). No Foundation.
        .target(name: "SkanCommandLine", swiftSettings: strictImports),
        // The one system I/O layer of the tools: inputs opened and read (`InputFile`, non-blocking where asked,
        // bounded), outputs written atomically or as a stream with their mode kept (`FileOutput`, `FileStream`),
        // descriptors written and read (`FileDescriptorOutput`, `FileDescriptorInput`).
        .target(name: "SkanFiles", dependencies: ["SkanCore"], swiftSettings: strictImports),
        // HTTP/1.1 as the receiver speaks it: a strict, bounded, incremental request parser and the answers.
        // No Foundation, no C library: fuzzed as it is.
        .target(name: "SkanHTTP", swiftSettings: strictImports),
        // `skanc serve`: the poll loop, the append-only store with group commit (a 200 only after fsync), the
        // routes and metrics; postbacks counted by the engine `skanc postbacks` runs.
        .target(
            name: "SkanReceiver",
            dependencies: [
                "SkanCore", "SkanSchema", "SkanCrypto", "SkanPostbacks", "SkanReports", "SkanHTTP", "SkanFiles",
            ],
            swiftSettings: strictImports),
        // What apps link next to the generated code: the updater that applies conversion values through
        // AdAttributionKit and SKAdNetwork. Each runtime target ships a privacy manifest for what it does.
        .target(
            name: "SkanRuntime", dependencies: ["SkanVocabulary"], resources: [.process("PrivacyInfo.xcprivacy")],
            swiftSettings: strictImports),
        // Schemas over the air in the app: the signed manifest and the artifacts fetched, verified against a
        // pinned key, cached, and the schema an install uses (live or in rollout).
        .target(
            name: "SkanRemoteSchema",
            dependencies: ["SkanCore", "SkanSchema", "SkanCrypto", "SkanRuntime", "SkanSchemaArtifact"],
            resources: [.process("PrivacyInfo.xcprivacy")], swiftSettings: strictImports),
        // Tracking authorization at the right moment, and the identifiers it allows.
        .target(
            name: "SkanTracking", dependencies: ["SkanVocabulary"], resources: [.process("PrivacyInfo.xcprivacy")],
            swiftSettings: strictImports),
        // The install's Apple Ads attribution record, fetched with an AdServices token.
        .target(
            name: "SkanAppleAdsClient", dependencies: ["SkanCore", "SkanAppleAds"],
            resources: [.process("PrivacyInfo.xcprivacy")], swiftSettings: strictImports),
        // The command-line shell: each command parses its options, makes one library call and prints.
        // Every subcommand, run on a `CommandContext` (standard input, output and error): the executable passes
        // the process's own, and tests run a command in-process on files of their own.
        .target(
            name: "SkanCommands",
            dependencies: [
                "SkanCore", "SkanCompiler", "SkanSchema", "SkanSchemaTools", "SkanPostbacks", "SkanReports",
                "SkanWarehouse",
                "SkanInfoPlist", "SkanAppleAds", "SkanPlatforms", "SkanCommandLine", "SkanReceiver",
                "SkanLanguageServer", "SkanSchemaArtifact", "SkanCrypto", "SkanFiles",
            ],
            swiftSettings: strictImports),
        .executableTarget(name: "skanc", dependencies: ["SkanCommands"], swiftSettings: strictImports),
        // The plugin's tool: `skanc-generate SCHEMA OUTPUT SOURCE_NAME`, the compiler and nothing else, so that
        // an app's first build does not build the postbacks engine.
        .executableTarget(
            name: "skanc-generate", dependencies: ["SkanCore", "SkanCompiler", "SkanFiles"],
            swiftSettings: strictImports),
        // Generates Swift from the *.skan files of a target at build time.
        .plugin(name: "SkancPlugin", capability: .buildTool(), dependencies: ["skanc-generate"]),

        // What the test targets share: paths of the package, the shipped schemas, unified diffs, golden files,
        // a strict CSV reader and a seeded random generator.
        .target(
            name: "SkanTestSupport", dependencies: ["SkanCore", "SkanCompiler"], path: "Tests/SkanTestSupport",
            swiftSettings: strictImports),
        .testTarget(
            name: "SkanCoreTests", dependencies: ["SkanCore", "SkanTestSupport"], swiftSettings: strictImports),
        .testTarget(
            name: "SkanCompilerTests",
            dependencies: ["SkanCore", "SkanCompiler", "SkanTestSupport"],
            exclude: ["Fixtures"], swiftSettings: strictImports),
        .testTarget(
            name: "SkanSchemaToolsTests",
            dependencies: ["SkanCore", "SkanCompiler", "SkanSchemaArtifact", "SkanSchemaTools", "SkanTestSupport"],
            exclude: ["Goldens"], swiftSettings: strictImports),
        .testTarget(
            name: "SkanLanguageServerTests",
            dependencies: ["SkanCore", "SkanCompiler", "SkanSchemaTools", "SkanLanguageServer", "SkanTestSupport"],
            swiftSettings: strictImports),
        .testTarget(
            name: "SkanSchemaArtifactTests",
            dependencies: ["SkanCore", "SkanCompiler", "SkanSchemaArtifact", "SkanTestSupport"],
            swiftSettings: strictImports),
        .testTarget(
            name: "SkanRemoteSchemaTests",
            dependencies: [
                "SkanCore", "SkanCompiler", "SkanSchemaArtifact", "SkanRemoteSchema", "SkanRuntime", "SkanTestSupport",
            ],
            swiftSettings: strictImports),
        .testTarget(
            name: "SkanCryptoTests", dependencies: ["SkanCore", "SkanCrypto", "SkanTestSupport"],
            swiftSettings: strictImports),
        .testTarget(
            name: "SkanPostbacksTests",
            dependencies: [
                "SkanCore", "SkanCompiler", "SkanCrypto", "SkanPostbacks", "SkanTestSupport",
            ],
            swiftSettings: strictImports),
        .testTarget(
            name: "SkanPlatformsTests",
            dependencies: ["SkanCore", "SkanCompiler", "SkanPlatforms", "SkanTestSupport"],
            exclude: ["Goldens", "Fixtures"],
            swiftSettings: strictImports),
        .testTarget(
            name: "SkanReportsTests",
            dependencies: [
                "SkanCore", "SkanCompiler", "SkanPostbacks", "SkanReports", "SkanTestSupport",
            ],
            swiftSettings: strictImports),
        .testTarget(
            name: "SkanWarehouseTests",
            dependencies: ["SkanCore", "SkanCompiler", "SkanPostbacks", "SkanWarehouse", "SkanTestSupport"],
            swiftSettings: strictImports),
        .testTarget(
            name: "SkanHTTPTests", dependencies: ["SkanHTTP"], swiftSettings: strictImports),
        .testTarget(
            name: "SkanReceiverTests",
            dependencies: [
                "SkanCore", "SkanCompiler", "SkanSchema", "SkanPostbacks", "SkanReceiver", "SkanTestSupport",
                "SkanFiles",
            ],
            swiftSettings: strictImports),
        .testTarget(
            name: "SkanCommandLineTests", dependencies: ["SkanCore", "SkanCommandLine"], swiftSettings: strictImports),
        .testTarget(name: "SkanFilesTests", dependencies: ["SkanFiles"], swiftSettings: strictImports),
        .testTarget(
            name: "SkanInfoPlistTests", dependencies: ["SkanCore", "SkanInfoPlist"], swiftSettings: strictImports),
        .testTarget(
            name: "SkancCLITests",
            dependencies: [
                "skanc", "SkanCommands", "SkanCore", "SkanCompiler", "SkanSchemaTools", "SkanPostbacks",
                "SkanPlatforms", "SkanCommandLine", "SkanRemoteSchema", "SkanSchemaArtifact", "SkanTestSupport",
                "SkanFiles",
            ],
            swiftSettings: strictImports),
        // The golden files of generated code, one module per access level, compiled and exercised by
        // GeneratedCodeTests against the library's reference semantics.
        .target(name: "GeneratedInternal", path: "Tests/GeneratedCode/Internal", swiftSettings: strictImports),
        .target(name: "GeneratedPackage", path: "Tests/GeneratedCode/Package", swiftSettings: strictImports),
        .target(name: "GeneratedPublic", path: "Tests/GeneratedCode/Public", swiftSettings: strictImports),
        .target(name: "GeneratedPlatforms", path: "Tests/GeneratedCode/Platforms", swiftSettings: strictImports),
        .testTarget(
            name: "GeneratedCodeTests",
            dependencies: [
                "SkanCore", "SkanCompiler", "SkanSchema", "SkanSchemaArtifact", "SkanRemoteSchema", "SkanTestSupport",
                "GeneratedInternal", "GeneratedPackage", "GeneratedPublic", "GeneratedPlatforms",
            ],
            swiftSettings: strictImports
        ),
        .testTarget(
            name: "SkanRuntimeTests",
            dependencies: [
                "SkanCore", "SkanRuntime", "SkanTracking", "SkanAppleAdsClient", "GeneratedPublic", "SkanCompiler",
                "SkanSchemaArtifact", "SkanRemoteSchema", "SkanTestSupport",
            ],
            swiftSettings: strictImports),
        .testTarget(
            name: "SkanTrackingTests", dependencies: ["SkanCore", "SkanTracking"], swiftSettings: strictImports),
        .testTarget(name: "SkanAppleAdsTests", dependencies: ["SkanAppleAds"], swiftSettings: strictImports),
        .testTarget(
            name: "SkanAppleAdsClientTests", dependencies: ["SkanCore", "SkanAppleAdsClient"],
            swiftSettings: strictImports),
        // Apple's SKAdNetwork and AdAttributionKit declarations, mirrored, with the runtime's calling code
        // (links to the Apple/ folders of the runtime targets: the same files, compiled against the mirror) on
        // every run.
        .testTarget(
            name: "AppleAPIMirrorTests",
            dependencies: ["SkanCore", "SkanCrypto", "SkanRuntime", "SkanTracking", "SkanAppleAdsClient"],
            swiftSettings: strictImports + [.define("APPLE_API_MIRROR")]
        ),
        // Reads Sources/ and Plugins/ as text for what would not compile on macOS or iOS.
        .testTarget(name: "PortabilityTests", dependencies: ["SkanTestSupport"], swiftSettings: strictImports),
    ],
    swiftLanguageModes: [.v6]
)
