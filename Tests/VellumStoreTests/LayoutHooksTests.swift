import Foundation
import Testing
@testable import VellumStore

/// What a save writes is asked of the layout, not decided by the writer for one
/// layout's sake: the versions rows start at and updates write (`initialVersion`,
/// `nextVersion`), the layout's writes at the end of a save (`finishSave`, Core Data's
/// `Z_MAX`/history) and how other writers' changes are learnt (`changeSource`).
@Suite struct LayoutHooksTests {
    static func open(_ dir: TempDir, history: Bool = true, _ layout: @escaping @Sendable (ManagedObjectModel) -> any StoreLayout) throws -> PersistentStore {
        var o = StoreOptions()
        o.layout = layout
        o.recordsHistory = history
        return try PersistentStore(url: dir.file("z.sqlite"), model: Fixtures.shopModel(), options: o)
    }

    @Test func theLayoutNumbersVersionsAndWritesBesideEachSave() throws {
        let dir = TempDir()
        let store = try Self.open(dir) { CoreDataNamedLayout(model: $0, firstVersion: 100, versionStep: 10, audits: true) }
        let path = dir.file("z.sqlite").path
        let c = try ManagedObjectContext(store: store)
        let p = try c.insert("Product", values: ["name": .string("Anvil"), "price": .double(1)])
        try c.save()
        #expect(p.version == 100)
        try p.setValue(.double(2), forKey: "price")
        try c.save()
        try p.setValue(.double(3), forKey: "price")
        try c.save()
        #expect(p.version == 120)
        #expect(try sqliteShellOutput(path, "SELECT Z_OPT FROM ZPRODUCT") == ["120"])
        // Optimistic locking compares the layout's versions: another context's save is a conflict.
        let theirs = try ManagedObjectContext(store: store)
        let q = try #require(try theirs.fetch("Product").first)
        try p.setValue(.double(4), forKey: "price")
        try c.save()
        try q.setValue(.double(5), forKey: "price")
        var failure: StoreError?
        do { try theirs.save() } catch { failure = error as? StoreError }
        guard case .conflicts(let cs)? = failure else { Issue.record("expected a version conflict, got \(String(describing: failure))"); return }
        #expect(cs.map(\.oldVersion) == [120] && cs.map(\.newVersion) == [130])
        try c.delete(p)
        try c.save()
        #expect(try sqliteShellOutput(path, "SELECT ZENTITY, ZKEY, ZKIND FROM Z_AUDIT ORDER BY rowid")
            == ["Product|1|insert", "Product|1|update", "Product|1|update", "Product|1|update", "Product|1|delete"])
    }

    @Test func aFailingFinishSaveRollsTheSaveBack() throws {
        let dir = TempDir()
        let store = try Self.open(dir) { CoreDataNamedLayout(model: $0, audits: true) }
        try Connection(path: dir.file("z.sqlite").path).run("DROP TABLE Z_AUDIT")
        let c = try ManagedObjectContext(store: store)
        _ = try c.insert("Product", values: ["name": .string("Anvil"), "price": .double(1)])
        #expect(throws: StoreError.self) { try c.save() }
        #expect(try sqliteShellOutput(dir.file("z.sqlite").path, "SELECT count(*) FROM ZPRODUCT") == ["0"])
    }

    @Test func theLayoutSaysHowOtherWritersChangesAreLearnt() throws {
        // Without Vellum's history a store's changes are coarse, unless its layout reads them from its rows.
        let a = TempDir(), b = TempDir()
        let plain = try Self.open(a, history: false) { CoreDataNamedLayout(model: $0) }
        #expect(!plain.hasHistory && plain.detectsChangesCoarsely)
        let rows = try Self.open(b, history: false) { CoreDataNamedLayout(model: $0, readsRowVersions: true) }
        #expect(!rows.detectsChangesCoarsely)
    }
}
