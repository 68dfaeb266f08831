// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "skanc",
    products: [
        .library(name: "SkanCompiler", targets: ["SkanCompiler"]),
        .executable(name: "skanc", targets: ["skanc"]),
    ],
    targets: [
        // The whole pipeline: lexer, parser, checker, model, reference semantics and renderers.
        .target(name: "SkanCompiler"),
        // The command-line shell around the pipeline.
        .executableTarget(name: "skanc", dependencies: ["SkanCompiler"]),
        .testTarget(name: "SkanCompilerTests", dependencies: ["SkanCompiler"], exclude: ["Fixtures"]),
        .testTarget(name: "SkancCLITests", dependencies: ["skanc"]),
    ],
    swiftLanguageModes: [.v6]
)
