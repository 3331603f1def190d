import Foundation
import Testing
@testable import VellumStore

/// Another process's change to one row of a Core Data store reaches open lists as a change
/// of that object only (not "something changed, refetch"): told by the row's `Z_OPT`, or
/// read from Core Data's persistent-history tables (`ATRANSACTION`/`ACHANGE`) when the store
/// has them, with the transaction's author and time.
@Suite struct CoreDataObjectLiveUpdateTests {
    /// Core Data's persistent-history tables, as a Core Data app that tracks history creates them.
    static let historySchema = """
        CREATE TABLE ACHANGE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER, ZENTITY INTEGER,
            ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB);
        CREATE TABLE ATRANSACTION (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHORTS INTEGER, ZBUNDLEIDTS INTEGER,
            ZCONTEXTNAMETS INTEGER, ZPROCESSIDTS INTEGER, ZTIMESTAMP FLOAT, ZAUTHOR VARCHAR, ZBUNDLEID VARCHAR, ZCONTEXTNAME VARCHAR,
            ZPROCESSID VARCHAR, ZQUERYGEN BLOB);
        CREATE TABLE ATRANSACTIONSTRING (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR NOT NULL UNIQUE);
        CREATE INDEX ACHANGE_ZTRANSACTIONID_INDEX ON ACHANGE (ZTRANSACTIONID);
        INSERT INTO Z_PRIMARYKEY VALUES (16001, 'CHANGE', 0, 0), (16002, 'TRANSACTION', 0, 0), (16003, 'TRANSACTIONSTRING', 0, 0);
        """

    /// What the monitor reported, and the lists' change sets, gathered on their own queues.
    final class Recorder: Sendable {
        let changes = Locked<[RemoteChange]>([])
        var transactions: [HistoryTransaction] {
            changes.withLock { $0 }.flatMap { c -> [HistoryTransaction] in if case .transactions(let t) = c { return t } else { return [] } }
        }
        var unknownCount: Int { changes.withLock { $0 }.filter { if case .unknown = $0 { return true } else { return false } }.count }
    }

    @MainActor static func watch(_ container: PersistentContainer) throws -> (Recorder, ResultsChecker) {
        let recorder = Recorder()
        container.observeRemoteChanges { change in recorder.changes.withLock { $0.append(change) } }
        let checker = try ResultsChecker(ResultsController(fetchRequest: FetchRequest(entityName: "Person", sortDescriptors: [QuerySortDescriptor("firstName")]),
                                                           context: container.viewContext))
        return (recorder, checker)
    }

    @MainActor @Test func anotherProcesssUpdateOfOneRowUpdatesOnlyThatObject() async throws {
        let copy = try CoreDataFixtureCopy("SampleModel-v1.sqlite")
        let path = copy.url.path
        let container = try PersistentContainer(store: PersistentStore.openAny(url: copy.url, model: nil, options: StoreOptions(createIfMissing: false)))
        let (recorder, checker) = try Self.watch(container)
        let person = container.store.objectID(entity: "Person", primaryKey: 3)
        #expect(try sqliteShell(path, "UPDATE ZPERSON SET ZLASTNAME = 'Shell', Z_OPT = Z_OPT + 1 WHERE Z_PK = 3") == 0)
        #expect(await waitUntil { !checker.sets.isEmpty }, "\(recorder.changes.withLock { $0 })")
        #expect(recorder.unknownCount == 0)
        #expect(recorder.transactions.flatMap(\.changes).map { "\($0.kind) \($0.objectID)" } == ["update \(person)"])
        let set = try #require(checker.sets.last)
        #expect(set.objectUpdates.map(\.id) == [person] && set.objectInserts.isEmpty && set.objectDeletes.isEmpty && !set.isReload)
        #expect(try container.viewContext.existingObject(with: person)["lastName"] == .string("Shell"))

        // A new row and a deleted one, in one transaction of the shell.
        let insert = """
            BEGIN; UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + 1 WHERE Z_ENT = 4;
            INSERT INTO ZPERSON (Z_PK, Z_ENT, Z_OPT, ZFIRSTNAME, ZUPDATEDAT, ZID) VALUES (21, 4, 1, 'Aaron', 0, randomblob(16));
            UPDATE ZCAR SET ZOWNER = NULL, Z_OPT = Z_OPT + 1 WHERE ZOWNER = 3; DELETE FROM ZPERSON WHERE Z_PK = 3; COMMIT;
            """
        let before = recorder.transactions.count
        #expect(try sqliteShell(path, insert) == 0)
        #expect(await waitUntil { recorder.transactions.count > before && checker.sets.count > 1 })
        let kinds = Set(recorder.transactions.dropFirst(before).flatMap(\.changes).filter { $0.objectID.rootName == "Person" }.map { "\($0.kind) \($0.objectID)" })
        #expect(kinds == ["insert \(container.store.objectID(entity: "Person", primaryKey: 21))", "delete \(person)"])
        #expect(recorder.unknownCount == 0)
        #expect(checker.controller.snapshot.objectIDs.count == 20 && !checker.controller.snapshot.objectIDs.contains(person))
        #expect(checker.failures.isEmpty, "\(checker.failures)")
        #expect(copy.originalUnchanged())
    }

    /// A store whose app records persistent history: the changes are read from `ACHANGE`,
    /// with the transaction's author (`ATRANSACTIONSTRING`) and time (seconds since 2001).
    @MainActor @Test func coreDataHistoryRowsGiveTheChangesWithTheirAuthor() async throws {
        let (copy, container, recorder, checker) = try Self.watchedHistoryStore()
        let path = copy.url.path
        let app = """
            BEGIN;
            INSERT INTO ATRANSACTIONSTRING (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (1, 16003, 1, 'MoodApp');
            INSERT INTO ATRANSACTION (Z_PK, Z_ENT, Z_OPT, ZAUTHORTS, ZTIMESTAMP) VALUES (1, 16002, 1, 1, 700000000);
            UPDATE ZPERSON SET ZLASTNAME = 'History', Z_OPT = Z_OPT + 1 WHERE Z_PK = 5;
            INSERT INTO ACHANGE (Z_PK, Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID) VALUES (1, 16001, 1, 1, 4, 5, 1);
            UPDATE Z_PRIMARYKEY SET Z_MAX = 1 WHERE Z_ENT IN (16001, 16002, 16003);
            COMMIT;
            """
        #expect(try sqliteShell(path, app) == 0)
        #expect(await waitUntil { !checker.sets.isEmpty }, "\(recorder.changes.withLock { $0 })")
        let person = container.store.objectID(entity: "Person", primaryKey: 5)
        let t = try #require(recorder.transactions.first)
        #expect(recorder.transactions.count == 1 && recorder.unknownCount == 0)
        #expect(t.author == "MoodApp" && t.timestamp == Date(timeIntervalSinceReferenceDate: 700_000_000))
        #expect(t.changes.map { "\($0.kind) \($0.objectID)" } == ["update \(person)"])
        #expect(checker.sets.last?.objectUpdates.map(\.id) == [person])
        #expect(try container.viewContext.existingObject(with: person)["lastName"] == .string("History"))
        #expect(checker.failures.isEmpty, "\(checker.failures)")
        #expect(copy.originalUnchanged())
    }

    /// A copy of SampleModel-v1 with Core Data's history tables, opened and watched.
    @MainActor static func watchedHistoryStore() throws -> (CoreDataFixtureCopy, PersistentContainer, Recorder, ResultsChecker) {
        let copy = try CoreDataFixtureCopy("SampleModel-v1.sqlite")
        #expect(try sqliteShell(copy.url.path, historySchema) == 0)
        let container = try PersistentContainer(store: PersistentStore.openAny(url: copy.url, model: nil, options: StoreOptions(createIfMissing: false)))
        let (recorder, checker) = try watch(container)
        return (copy, container, recorder, checker)
    }
}
