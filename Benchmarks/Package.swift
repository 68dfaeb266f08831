// swift-tools-version: 6.1
import PackageDescription

// The benchmark executables, apart from the package apps depend on. Benchmarks/signatures.py builds and runs
// signature-benchmark; Benchmarks/run.py times `skanc` itself and runs scan-floor.
let package = Package(
    name: "SkancBenchmarks",
    platforms: [.macOS(.v10_15)],
    dependencies: [.package(name: "skanc", path: "..")],
    targets: [
        // Verifications per second through SkanCrypto's public API, as a user of the library calls it.
        .executableTarget(
            name: "signature-benchmark", dependencies: [.product(name: "SkanCrypto", package: "skanc")],
            path: "SignatureBenchmark"),
        // The floor under plain decoding: reading a file, finding its lines and scanning every byte, one thread.
        .executableTarget(name: "scan-floor", path: "ScanFloor"),
    ],
    swiftLanguageModes: [.v6]
)
