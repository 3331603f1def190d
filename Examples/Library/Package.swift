// swift-tools-version:6.0
import PackageDescription

// An app using Vellum's typed entities: the build plugin generates Book, Author, Chapter
// and Person from Library.vellum.json at build time (nothing generated is committed).
let package = Package(
    name: "Library",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "Vellum", path: "../..")],
    targets: [
        .executableTarget(
            name: "Library",
            dependencies: [.product(name: "VellumStore", package: "Vellum")],
            resources: [.copy("Library.vellum.json")],
            plugins: [.plugin(name: "VellumModelPlugin", package: "Vellum")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
