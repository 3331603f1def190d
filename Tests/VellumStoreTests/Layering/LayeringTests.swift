import Foundation
import Testing

/// Dependencies inside VellumStore run one way, from the bottom up. A file
/// that uses a type of a higher layer is a back-edge: the test names it.
@Suite struct LayeringTests {
    /// The folders of `Sources/VellumStore`, bottom first (see docs/architecture.md).
    static let layers = ["Support", "Model", "SQLite", "PostgreSQL", "CoreData", "Store", "History", "Migration", "Query", "Context", "Results", "Export", "Typed"]

    static var storeSources: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/VellumStore")
    }

    /// Every Swift file under `root`, by its top folder (nil for a file at the root).
    static func sourceFiles(under root: URL) throws -> [(folder: String?, file: LayerChecker.SourceFile)] {
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        var result: [(String?, LayerChecker.SourceFile)] = []
        let rootPath = root.standardizedFileURL.path + "/"
        for case let url as URL in walker where url.pathExtension == "swift" {
            let relative = String(url.standardizedFileURL.path.dropFirst(rootPath.count))
            let parts = relative.split(separator: "/")
            let folder = parts.count > 1 ? String(parts[0]) : nil
            let text = try String(contentsOf: url, encoding: .utf8)
            result.append((folder, LayerChecker.SourceFile(layer: folder ?? "", path: relative, text: text)))
        }
        return result.sorted { $0.1.path < $1.1.path }
    }

    @Test func noLowerLayerUsesAHigherOne() throws {
        let files = try Self.sourceFiles(under: Self.storeSources)
        #expect(files.count > 50, "found only \(files.count) sources under \(Self.storeSources.path)")
        let violations = LayerChecker(layers: Self.layers).violations(in: files.map(\.file))
        #expect(violations.isEmpty, "back-edges:\n\(violations.map(\.description).joined(separator: "\n"))")
    }

    @Test func everySourceIsInALayer() throws {
        let outside = try Self.sourceFiles(under: Self.storeSources)
            .filter { $0.folder.map { !Self.layers.contains($0) } ?? true }.map(\.file.path)
        #expect(outside.isEmpty, "files outside the layer folders \(Self.layers): \(outside)")
    }

    // MARK: The checker itself, on tiny trees

    static func check(_ files: [(String, String)]) -> [LayerChecker.Violation] {
        LayerChecker(layers: ["Low", "High"]).violations(in: files.map { path, text in
            LayerChecker.SourceFile(layer: String(path.split(separator: "/")[0]), path: path, text: text)
        })
    }

    @Test func checkerNamesFileLineAndTypeOfABackEdge() {
        let violations = Self.check([
            ("High/Context.swift", "public final class Context {}\nfunc helper() {}\n"),
            ("Low/Store.swift", "struct Store {\n    // a Context is not named here\n    func publish(from c: Context) {}\n    func go() { helper() }\n}\n"),
        ])
        #expect(violations.map(\.description) == [
            "Low/Store.swift:3: Low uses Context, which High declares (a higher layer)",
            "Low/Store.swift:4: Low uses helper, which High declares (a higher layer)",
        ])
    }

    @Test func checkerAllowsUsesDownward() {
        #expect(Self.check([
            ("Low/ID.swift", "public struct ID {}\n"),
            ("High/Context.swift", "extension ID { func context() -> Context? { nil } }\nfinal class Context { let id: ID }\n"),
        ]).isEmpty)
    }

    @Test func checkerIgnoresCommentsStringsAndMembers() {
        let low = """
            /* Context, /* nested Context */ still a comment: Context */
            let a = "Context"
            let b = \"\"\"
                Context
                \"\"\"
            let c = #"Context \\(x)"#
            let d = thing.Context
            """
        #expect(Self.check([("High/Context.swift", "class Context {}\n"), ("Low/A.swift", low)]).isEmpty)
    }

    @Test func checkerSeesCodeInsideInterpolations() {
        let violations = Self.check([
            ("High/Schema.swift", "enum Schema { static let table = \"t\" }\n"),
            ("Low/Writer.swift", "let sql = \"SELECT * FROM \\(Schema.table) WHERE x = \\\"\\(1)\"\n"),
        ])
        #expect(violations.map(\.name) == ["Schema"])
    }

    @Test func checkerLetsANestedTypeShadowAHigherLayersName() {
        // `ObjectID.Key` in a lower layer is not the predicate builder's `Key` above it.
        #expect(Self.check([
            ("High/Builder.swift", "public struct Key {}\n"),
            ("Low/ID.swift", "struct ID {\n    enum Key { case a }\n    let key: Key\n}\n"),
        ]).isEmpty)
    }

    @Test func checkerSeesAnExtensionMemberOfAHigherLayer() {
        // History's `extension PersistentStore { func othersTransactions }` called from Store.
        let violations = Self.check([
            ("High/Store+Others.swift", "extension Store {\n    func othersTransactions() -> [Int] { [] }\n    var isQuiet: Bool { true }\n}\n"),
            ("Low/Store.swift", "struct Store {\n    func poll() -> Int { othersTransactions().count }\n}\nfunc read(_ s: Store) -> Bool { s.isQuiet }\n"),
        ])
        #expect(violations.map(\.description) == [
            "Low/Store.swift:2: Low uses othersTransactions, which High declares (a higher layer)",
            "Low/Store.swift:4: Low uses isQuiet, which High declares (a higher layer)",
        ])
    }

    @Test func checkerSeesATopLevelLetOrVarOfAHigherLayer() {
        let violations = Self.check([
            ("High/Keywords.swift", "let predicateKeywords: Set<String> = []\npublic var counter = 0\nprivate let hidden = 1\n"),
            ("Low/Lexer.swift", "func isKeyword(_ w: String) -> Bool { predicateKeywords.contains(w) }\nfunc bump() { counter += 1; _ = hidden }\n"),
        ])
        #expect(violations.map(\.description) == [
            "Low/Lexer.swift:1: Low uses predicateKeywords, which High declares (a higher layer)",
            "Low/Lexer.swift:2: Low uses counter, which High declares (a higher layer)",
        ])
    }

    @Test func checkerLetsALowerLayersOwnMemberShareAnExtensionMembersName() {
        // A higher layer's `extension Other { var name }` is not the lower layer's own `name`,
        // nor its `save` a parameter of that name (a label and a local); only members added
        // to the tree's own types are followed (`extension String` could be any string's).
        #expect(Self.check([
            ("High/Other+Name.swift", "extension Other {\n    var name: String { \"\" }\n    func save() {}\n}\nextension String {\n    var isBlank: Bool { isEmpty }\n}\n"),
            ("Low/Item.swift", "struct Other {}\nstruct Item {\n    let name: String\n}\nfunc show(_ i: Item, save: () -> Void) -> String { save(); return i.name }\n"),
        ]).isEmpty)
    }

    @Test func checkerIgnoresFilePrivateDeclarationsOfHigherLayers() {
        #expect(Self.check([
            ("High/A.swift", "private func quote() {}\nfileprivate struct Row {}\n"),
            ("Low/B.swift", "func quote() {}\nlet r = Row()\n"),
        ]).isEmpty)
    }
}
