// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Vellum",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "VellumStore", targets: ["VellumStore"]),
        .library(name: "VellumStoreDeprecatedNames", targets: ["VellumStoreDeprecatedNames"]),
        .executable(name: "vellum", targets: ["vellum"]),
        .executable(name: "vellum-bench", targets: ["vellum-bench"]),
        // Generates typed entity classes from a target's model files at build time (docs/guide.md).
        .plugin(name: "VellumModelPlugin", targets: ["VellumModelPlugin"]),
    ],
    targets: [
        // System SQLite (libsqlite3-dev).
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // System zlib (zlib1g-dev): raw DEFLATE for Core Data's model cache.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // The PostgreSQL client library's declarations (libpq-dev), loaded on first use
        // (dlopen), so a SQLite session never loads libpq and its twenty-odd libraries.
        .target(name: "CLibPQ"),
        // ncursesw plus a tiny C shim for the macros Swift cannot import.
        .target(
            name: "CCurses",
            cSettings: [.define("_XOPEN_SOURCE_EXTENDED"), .define("NCURSES_WIDECHAR", to: "1")],
            linkerSettings: [.linkedLibrary("ncursesw")]
        ),
        // A few C wrappers for variadic SQLite calls Swift cannot make.
        .target(name: "CSQLiteShim", dependencies: ["CSQLite"], linkerSettings: [.linkedLibrary("sqlite3")]),
        // SHA-256 blocks with the CPU's SHA instructions where it has them (model hashes).
        .target(name: "CSHA256"),
        .target(name: "VellumStore", dependencies: ["CSQLite", "CSQLiteShim", "CZlib", "CLibPQ", "CSHA256"]),
        // The names before issue 16, deprecated (scripts/rename-foundation-clashes.sh).
        .target(name: "VellumStoreDeprecatedNames", dependencies: ["VellumStore"]),
        .target(name: "VellumTerminal", dependencies: ["CCurses"]),
        .target(name: "VellumApp", dependencies: ["VellumStore", "VellumTerminal"]),
        .executableTarget(name: "vellum", dependencies: ["VellumStore", "VellumApp", "VellumTerminal"]),
        // Its `Record` class is generated from Record.vellum.json by the build plugin (the typed benchmarks).
        .executableTarget(name: "vellum-bench", dependencies: ["VellumStore", "CSQLite", "CLibPQ", "CZlib"],
                          resources: [.copy("Record.vellum.json")], plugins: ["VellumModelPlugin"]),
        // The build plugin's generator: VellumStore only, not the terminal browser.
        .executableTarget(name: "vellum-generate", dependencies: ["VellumStore"]),
        .plugin(name: "VellumModelPlugin", capability: .buildTool(), dependencies: ["vellum-generate"]),
        // What the test targets share: temporary directories, fixtures, waiting, the sqlite3 shell, tmux.
        .target(name: "VellumTestSupport", dependencies: ["VellumStore"], path: "Tests/VellumTestSupport"),
        .testTarget(name: "VellumStoreTests", dependencies: ["VellumStore", "CSQLite", "VellumTestSupport"]),
        .testTarget(name: "VellumTerminalTests", dependencies: ["VellumTerminal", "VellumTestSupport"]),
        .testTarget(name: "VellumCLITests", dependencies: ["vellum", "VellumStore", "VellumApp", "VellumTestSupport"]),
        .testTarget(name: "VellumAppTests", dependencies: ["VellumApp", "VellumStore", "VellumTerminal", "VellumTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
