// swift-tools-version:6.0
import PackageDescription

// docs/guide.md section 9, pattern 1: a shared store (ShopStack) with a main context and a
// serial write queue. Untyped API, as in the guide; the model is the resource Shop.vellum.json.
let package = Package(
    name: "SharedStack",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "Vellum", path: "../..")],
    targets: [
        .executableTarget(
            name: "SharedStack",
            dependencies: [.product(name: "VellumStore", package: "Vellum")],
            resources: [.copy("Shop.vellum.json")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
