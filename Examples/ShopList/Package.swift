// swift-tools-version:6.0
import PackageDescription

// docs/guide.md section 9, pattern 3: a uniqueness check before inserting, and a live
// fetched-results list. Untyped API, as in the guide; the model is the resource Shop.vellum.json.
let package = Package(
    name: "ShopList",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "Vellum", path: "../..")],
    targets: [
        .executableTarget(
            name: "ShopList",
            dependencies: [.product(name: "VellumStore", package: "Vellum")],
            resources: [.copy("Shop.vellum.json")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
