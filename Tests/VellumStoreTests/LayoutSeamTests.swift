import Foundation
import Testing
@testable import VellumStore

/// The layout is the one place that names tables and system columns: a name
/// of the native format written anywhere else in the store's sources would tie
/// that code to one layout.
@Suite struct LayoutSeamTests {
    /// Files allowed to spell the native layout's names.
    static let layoutOwned: Set<String> = ["Store/NativeLayout.swift", "Store/NativeLayout+JoinTables.swift"]
    /// System columns, join-table key and ordering columns of the native layout, as literals.
    static let nativeNames = [#""_pk""#, #""_entity""#, #""_version""#, #"\"_pk\""#, #"\"_entity\""#, #"\"_version\""#,
                              #""source""#, #""target""#, #"_position""#, #""_order""#]

    @Test func nativeNamesAppearOnlyInTheLayout() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources/VellumStore").standardizedFileURL
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        #expect(files.count > 50)
        var offending: [String] = []
        for file in files.sorted() where !Self.layoutOwned.contains(file) {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                if code.hasPrefix("//") { continue }
                for name in Self.nativeNames where line.contains(name) { offending.append("\(file):\(n + 1): \(name)") }
            }
        }
        #expect(offending.isEmpty, "native layout names outside the layout:\n\(offending.joined(separator: "\n"))")
    }

    /// The layers above the store decide nothing by a layout's concrete type: what differs
    /// between layouts is a `StoreLayout` requirement.
    static let concreteLayouts = ["NativeLayout", "ForeignLayout", "CoreDataLayout", "PostgreSQLLayout"]
    static let layersAboveTheStore = ["History", "Migration", "Query", "Context", "Results", "Export", "Typed"]
    /// "Folder/File.swift Type": why that file names a concrete layout. The list may only shrink.
    static let namesALayoutBecause: [String: String] = [
        "Migration/StoreMigrator.swift NativeLayout": "a migrated file store is written in the native layout (the default of `StoreMigrator.layout`)",
        "Migration/MigrationDesign+PostgreSQL.swift PostgreSQLLayout": "a server store's migration designs the server's tables over the native names",
    ]

    @Test func noLayerAboveTheStoreNamesAConcreteLayout() throws {
        let files = try LayeringTests.sourceFiles(under: LayeringTests.storeSources).filter { f in f.folder.map { Self.layersAboveTheStore.contains($0) } ?? false }
        #expect(files.count > 50)
        var offending: [String] = [], used: Set<String> = []
        for (_, file) in files {
            let code = LayerChecker.strippingCommentsAndStrings(file.text)
            for (n, line) in code.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let names = Set(LayerChecker.identifiers(in: line).map(\.name))
                for layout in Self.concreteLayouts where names.contains(layout) {
                    let key = "\(file.path) \(layout)"
                    if Self.namesALayoutBecause[key] != nil { used.insert(key); continue }
                    offending.append("\(file.path):\(n + 1): \(layout) (cast or name): make it a StoreLayout requirement")
                }
            }
        }
        #expect(offending.isEmpty, "concrete layouts above the store:\n\(offending.joined(separator: "\n"))")
        #expect(Set(Self.namesALayoutBecause.keys).subtracting(used).isEmpty, "no longer needed, remove from the list: \(Set(Self.namesALayoutBecause.keys).subtracting(used))")
    }

    @Test func storesOpenWithTheirLayoutAndTheDefaultIsNative() throws {
        let dir = TempDir()
        let store = try Fixtures.openShop(dir)
        #expect(store.layout is NativeLayout)
        #expect(try Connection(path: dir.file("shop.sqlite").path).tableExists("Product"))
    }
}
