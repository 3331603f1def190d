// swift-tools-version:6.0
import PackageDescription

// docs/guide.md section 9, pattern 2: a manager whose every write is one write-queue block.
// Untyped API, as in the guide; the model is the resource Shop.vellum.json.
let package = Package(
    name: "ProviderManager",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "Vellum", path: "../..")],
    targets: [
        .executableTarget(
            name: "ProviderManager",
            dependencies: [.product(name: "VellumStore", package: "Vellum")],
            resources: [.copy("Shop.vellum.json")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
