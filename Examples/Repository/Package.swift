// swift-tools-version:6.0
import PackageDescription

// docs/guide.md section 9, pattern 4: a CRUD wrapper over generated typed entities. The build
// plugin generates Provider and Product from Shop.vellum.json at build time (nothing generated is committed).
let package = Package(
    name: "Repository",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "Vellum", path: "../..")],
    targets: [
        .executableTarget(
            name: "Repository",
            dependencies: [.product(name: "VellumStore", package: "Vellum")],
            resources: [.copy("Shop.vellum.json")],
            plugins: [.plugin(name: "VellumModelPlugin", package: "Vellum")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
