// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "skanc",
    // The floors the code needs: Swift concurrency (the runtime's actor and async sends) is there from
    // macOS 10.15 and iOS 13. Newer Apple APIs are called behind `#available` checks (README, "Platform
    // support"); PortabilityTests keeps both true.
    platforms: [.macOS(.v10_15), .iOS(.v13)],
    products: [
        .library(name: "SkanCompiler", targets: ["SkanCompiler"]),
        .library(name: "SkanPostbacks", targets: ["SkanPostbacks"]),
        .executable(name: "skanc", targets: ["skanc"]),
        .plugin(name: "SkancPlugin", targets: ["SkancPlugin"]),
        .library(name: "SkanRuntime", targets: ["SkanRuntime"]),
    ],
    targets: [
        // The schema compiler: lexer, parser, checker, model, reference semantics and renderers. No I/O,
        // no Foundation, no C library.
        .target(name: "SkanCompiler"),
        // Postback files: streaming, multi-threaded decoding and checking of postbacks with a schema.
        .target(name: "SkanPostbacks", dependencies: ["SkanCompiler"]),
        // Verifications per second, for Benchmarks/signatures.py.
        .executableTarget(
            name: "signature-benchmark", dependencies: ["SkanPostbacks"], path: "Benchmarks/SignatureBenchmark"),
        // The command-line shell around both.
        .executableTarget(name: "skanc", dependencies: ["SkanCompiler", "SkanPostbacks", "SkanAppleAds"]),
        // Apple Ads attribution records in one shape (the AdServices API's and the iAd framework's), read from
        // JSON: for the runtime's client and for `skanc attribution`. Foundation only, no networking.
        .target(name: "SkanAppleAds"),
        // What apps link next to the generated code: one updater that applies conversion values, tracking
        // authorization and the Apple Ads attribution client.
        .target(name: "SkanRuntime", dependencies: ["SkanAppleAds"]),
        // Generates Swift from the *.skan files of a target at build time.
        .plugin(name: "SkancPlugin", capability: .buildTool(), dependencies: ["skanc"]),
        .testTarget(name: "SkanCompilerTests", dependencies: ["SkanCompiler"], exclude: ["Fixtures", "Goldens"]),
        .testTarget(name: "SkanPostbacksTests", dependencies: ["SkanPostbacks", "SkanCompiler"]),
        .testTarget(name: "SkancCLITests", dependencies: ["skanc", "SkanCompiler", "SkanPostbacks"]),
        // The golden files of generated code, one module per access level, compiled and exercised by
        // GeneratedCodeTests against the library's reference semantics.
        .target(name: "GeneratedInternal", path: "Tests/GeneratedCode/Internal"),
        .target(name: "GeneratedPackage", path: "Tests/GeneratedCode/Package"),
        .target(name: "GeneratedPublic", path: "Tests/GeneratedCode/Public"),
        .testTarget(
            name: "GeneratedCodeTests",
            dependencies: ["SkanCompiler", "GeneratedInternal", "GeneratedPackage", "GeneratedPublic"]
        ),
        .testTarget(name: "SkanRuntimeTests", dependencies: ["SkanRuntime", "SkanAppleAds", "GeneratedPublic"]),
        // Apple's SKAdNetwork and AdAttributionKit declarations, mirrored, with the runtime's calling code
        // (a link to Sources/SkanRuntime/Apple) compiled against them on every run.
        .testTarget(
            name: "AppleAPIMirrorTests",
            dependencies: ["SkanRuntime"],
            swiftSettings: [.define("APPLE_API_MIRROR")]
        ),
        // Reads Sources/ and Plugins/ as text for what would not compile on macOS or iOS.
        .testTarget(name: "PortabilityTests"),
    ],
    swiftLanguageModes: [.v6]
)
