import Foundation
import Testing
@testable import VellumStore

/// A store made with the first version of an Xcode bundle, opened with the bundle whose
/// current version is the third. Each version's `elementID` names the element of the
/// version before (Xcode's renaming identifier), so an entity, an attribute and both
/// sides of a relationship renamed twice are linked only through the middle version.
/// Before, only the current version was read: the renamed attribute's values and the
/// relationship's links were dropped as "removed" by the automatic migration.
@Suite struct MigrationBundleChainTests {
    /// Version `v` (1…3) of a two-entity model: Note → Memo → Card, title → heading →
    /// caption, folder → box → bin and its inverse notes → memos → cards.
    static func contents(_ v: Int) -> String {
        let entity = ["Note", "Memo", "Card"][v - 1], text = ["title", "heading", "caption"][v - 1]
        let toOne = ["folder", "box", "bin"][v - 1], toMany = ["notes", "memos", "cards"][v - 1]
        func was(_ names: [String]) -> String { v == 1 ? "" : " elementID=\"\(names[v - 2])\"" }
        return """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="\(entity)" representedClassName="\(entity)"\(was(["Note", "Memo"]))>
                    <attribute name="\(text)" optional="YES" attributeType="String"\(was(["title", "heading"]))/>
                    <attribute name="stars" optional="YES" attributeType="Integer 16" defaultValueString="0" usesScalarValueType="YES"/>
                    <relationship name="\(toOne)" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="\(toMany)" inverseEntity="Folder"\(was(["folder", "box"]))/>
                </entity>
                <entity name="Folder" representedClassName="Folder">
                    <attribute name="name" optional="YES" attributeType="String"/>
                    <relationship name="\(toMany)" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="\(entity)" inverseName="\(toOne)" inverseEntity="\(entity)"\(was(["notes", "memos"]))/>
                </entity>
            </model>
            """
    }

    /// `Model.xcdatamodeld` with `Model`, `Model 2`, `Model 3`, the third current.
    static func bundle(in dir: TempDir) throws -> URL {
        let bundle = dir.url.appendingPathComponent("Model.xcdatamodeld")
        for v in 1...3 {
            let folder = bundle.appendingPathComponent(v == 1 ? "Model.xcdatamodel" : "Model \(v).xcdatamodel")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(contents(v).utf8).write(to: folder.appendingPathComponent("contents"))
        }
        try Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>Model 3.xcdatamodel</string></dict></plist>
            """.utf8).write(to: bundle.appendingPathComponent(".xccurrentversion"))
        return bundle
    }

    /// A store of version 1: two notes in one folder, one without a folder.
    static func firstVersionStore(_ bundle: URL) throws -> MigrationTestStore {
        let v1 = try XcodeModelReader.read(url: bundle.appendingPathComponent("Model.xcdatamodel"))
        return try MigrationTestStore(v1) { ctx in
            let inbox = try ctx.insert("Folder", values: ["name": "Inbox"])
            for (title, stars) in [("Buy tea", 3), ("Call Ada", 5)] {
                try ctx.insert("Note", values: ["title": .string(title), "stars": .integer(Int64(stars))]).setToOne("folder", inbox)
            }
            _ = try ctx.insert("Note", values: ["title": "Loose", "stars": 1])
        }
    }

    @Test func theBundleReadsItsEarlierVersionsOldestFirst() throws {
        let dir = TempDir()
        let model = try ModelLoader.load(from: try Self.bundle(in: dir))
        #expect(model.entityNames == ["Card", "Folder"])
        #expect(model.previousVersions.map(\.entityNames) == [["Folder", "Note"], ["Folder", "Memo"]])
    }

    @Test func aFirstVersionStoreOpenedWithTheBundleKeepsWhatWasRenamedTwice() async throws {
        let dir = TempDir()
        let bundle = try Self.bundle(in: dir)
        let store = try Self.firstVersionStore(bundle)
        let model = try ModelLoader.load(from: bundle)

        let plan = try StoreMigrator.plan(storeAt: store.url, to: model)
        #expect(plan.description.contains("renamed"), "\(plan.description)")
        #expect(!plan.description.contains("removed"), "\(plan.description)")

        // The container's automatic migration (the default policy) does it on open.
        let container = try PersistentContainer(model: model, storeURL: store.url)
        let cards = try await MainActor.run {
            try container.viewContext.fetch("Card").map { card in
                [try card["caption"], try card["stars"], try card.toOne("bin").map { try $0["name"] } ?? .null]
            }
        }
        #expect(Set(cards) == [["Buy tea", 3, "Inbox"], ["Call Ada", 5, "Inbox"], ["Loose", 1, .null]])
        let folderCards = try await MainActor.run {
            try container.viewContext.fetch("Folder").first.map { try $0.toMany("cards").count }
        }
        #expect(folderCards == 2)
    }

    @Test func theDiffOfTheFirstVersionAndTheBundleNamesTheRenames() throws {
        let dir = TempDir()
        let bundle = try Self.bundle(in: dir)
        let model = try ModelLoader.load(from: bundle)
        let text = ModelDiff.changes(from: model.previousVersions[0], to: model).map(\.description).joined(separator: "\n")
        for rename in ["Note", "title", "folder", "notes"] {
            #expect(text.contains(rename), "\(text)")
        }
        #expect(!text.contains("removed"), "\(text)")
        // Both sides of the relationship were renamed together: no inverse change to report.
        #expect(!text.contains("inverse"), "\(text)")
    }

    @Test func withoutTheMiddleVersionTheRenameIsNotGuessed() throws {
        // The third version alone names "heading", which the first does not have: the
        // plan says the first version's attribute goes (and the backup keeps it).
        let dir = TempDir()
        let bundle = try Self.bundle(in: dir)
        let store = try Self.firstVersionStore(bundle)
        let third = try XcodeModelReader.read(url: bundle.appendingPathComponent("Model 3.xcdatamodel"))
        #expect(third.previousVersions.isEmpty)
        #expect(try StoreMigrator.plan(storeAt: store.url, to: third).description.contains("removed"))
    }

    @Test func anInverseThatReallyChangedIsStillReported() throws {
        func model(swapped: Bool) throws -> ManagedObjectModel {
            try ModelBuilder()
                .entity("Person") {
                    $0.toMany("written", "Book", inverse: swapped ? "editor" : "author")
                    $0.toMany("edited", "Book", inverse: swapped ? "author" : "editor")
                }
                .entity("Book") {
                    $0.toOne("author", "Person", inverse: swapped ? "edited" : "written")
                    $0.toOne("editor", "Person", inverse: swapped ? "written" : "edited")
                }
                .build()
        }
        let text = ModelDiff.changes(from: try model(swapped: false), to: try model(swapped: true)).map(\.description)
        #expect(text.contains("Person: relationship written inverse author → editor"), "\(text)")
        #expect(text.contains("Book: relationship author inverse written → edited"), "\(text)")
    }
}
