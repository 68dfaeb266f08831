// swift-tools-version: 6.2
import PackageDescription

// Uses skanc the way an app does: the build-tool plugin turns each target's *.skan files into Swift.
let package = Package(
    name: "SkancExamples",
    dependencies: [
        .package(name: "skanc", path: "..")
    ],
    targets: [
        // A command-line demo: builds a state, prints its values, decodes a value back.
        .executableTarget(
            name: "ShopDemo",
            dependencies: ["MainActorApp"],
            plugins: [.plugin(name: "SkancPlugin", package: "skanc")]
        ),
        // Replays a user's first 35 days through the runtime's updater and prints each update it makes, then a
        // re-engagement on day 60, then a schema with events (Game.skan) driven by logged events.
        .executableTarget(
            name: "JourneyDemo",
            dependencies: [.product(name: "SkanRuntime", package: "skanc")],
            plugins: [.plugin(name: "SkancPlugin", package: "skanc")]
        ),
        // Tracking authorization and Apple Ads attribution, run against fakes, next to conversion values.
        .executableTarget(
            name: "AttributionDemo",
            dependencies: [
                .product(name: "SkanRuntime", package: "skanc"), .product(name: "SkanTracking", package: "skanc"),
                .product(name: "SkanAppleAdsClient", package: "skanc"),
            ],
            plugins: [.plugin(name: "SkancPlugin", package: "skanc")]
        ),
        // A target whose code is MainActor-isolated by default, as new app targets are.
        .target(
            name: "MainActorApp",
            swiftSettings: [.defaultIsolation(MainActor.self)],
            plugins: [.plugin(name: "SkancPlugin", package: "skanc")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
