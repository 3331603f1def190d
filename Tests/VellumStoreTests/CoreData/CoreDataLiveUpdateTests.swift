import Foundation
import Testing
@testable import VellumStore

/// Another process's writes to a Core Data store (here the `sqlite3` shell, writing as a
/// Core Data app does: Z_MAX, Z_ENT, Z_OPT + 1) reach an open results controller object by
/// object (`Z_OPT` versions), each change set turning the old list into the new.
@Suite struct CoreDataLiveUpdateTests {
    @MainActor @Test func anotherProcesssInsertUpdateAndDeleteReachAResultsController() async throws {
        let copy = try CoreDataFixtureCopy("SampleModel-v1.sqlite")
        let path = copy.url.path
        let container = try PersistentContainer(store: PersistentStore.openAny(url: copy.url, model: nil, options: StoreOptions(createIfMissing: false)))
        #expect(!container.store.detectsChangesCoarsely)
        let view = container.viewContext
        let checker = try ResultsChecker(ResultsController(fetchRequest: FetchRequest(entityName: "Person", sortDescriptors: [QuerySortDescriptor("firstName")]),
                                                           context: view))
        func names() -> [String] {
            checker.controller.snapshot.objectIDs.map { ((try? view.existingObject(with: $0)).flatMap { try? $0["firstName"] })?.stringValue ?? "?" }
        }
        #expect(names().count == 20)
        let insert = """
            BEGIN; UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + 1 WHERE Z_ENT = 4;
            INSERT INTO ZPERSON (Z_PK, Z_ENT, Z_OPT, ZFIRSTNAME, ZUPDATEDAT, ZID) VALUES ((SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 4), 4, 1, 'Aaron', 0, randomblob(16)); COMMIT;
            """
        #expect(try sqliteShell(path, insert) == 0)
        #expect(await waitUntil { names().count == 21 && names().first == "Aaron" }, "\(names())")
        #expect(try sqliteShell(path, "UPDATE ZPERSON SET ZFIRSTNAME = 'Zelda', Z_OPT = Z_OPT + 1 WHERE ZFIRSTNAME = 'Aaron'") == 0)
        #expect(await waitUntil { names().last == "Zelda" && !names().contains("Aaron") }, "\(names())")
        #expect(try sqliteShell(path, "DELETE FROM ZPERSON WHERE ZFIRSTNAME = 'Zelda'") == 0)
        #expect(await waitUntil { names().count == 20 && !names().contains("Zelda") }, "\(names())")
        #expect(checker.failures.isEmpty, "\(checker.failures)")
        #expect(copy.originalUnchanged())
    }
}
