// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "skanc",
    products: [
        .library(name: "SkanCompiler", targets: ["SkanCompiler"]),
        .executable(name: "skanc", targets: ["skanc"]),
        .plugin(name: "SkancPlugin", targets: ["SkancPlugin"]),
    ],
    targets: [
        // The whole pipeline: lexer, parser, checker, model, reference semantics and renderers.
        .target(name: "SkanCompiler"),
        // The command-line shell around the pipeline.
        .executableTarget(name: "skanc", dependencies: ["SkanCompiler"]),
        // Generates Swift from the *.skan files of a target at build time.
        .plugin(name: "SkancPlugin", capability: .buildTool(), dependencies: ["skanc"]),
        .testTarget(name: "SkanCompilerTests", dependencies: ["SkanCompiler"], exclude: ["Fixtures", "Goldens"]),
        .testTarget(name: "SkancCLITests", dependencies: ["skanc", "SkanCompiler"]),
        // The golden files of generated code, one module per access level, compiled and exercised by
        // GeneratedCodeTests against the library's reference semantics.
        .target(name: "GeneratedInternal", path: "Tests/GeneratedCode/Internal"),
        .target(name: "GeneratedPackage", path: "Tests/GeneratedCode/Package"),
        .target(name: "GeneratedPublic", path: "Tests/GeneratedCode/Public"),
        .testTarget(
            name: "GeneratedCodeTests",
            dependencies: ["SkanCompiler", "GeneratedInternal", "GeneratedPackage", "GeneratedPublic"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
