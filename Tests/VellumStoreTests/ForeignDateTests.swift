import Foundation
import Testing
@testable import VellumStore

/// Dates in another program's database stored as ISO-8601 text, Unix seconds,
/// Unix milliseconds or Julian days: read and edited as dates, compared as dates
/// in predicates, and written back in the form the column stores them in
/// (checked with the sqlite3 shell reading the stored text or number).
@Suite(.serialized) struct ForeignDateTests {
    static let schema = """
        CREATE TABLE ev (id INTEGER PRIMARY KEY, iso DATETIME, isoT TIMESTAMP, day DATE, unix TIMESTAMP, ms DATETIME, julian DATE, label TEXT);
        INSERT INTO ev VALUES (1, '2024-05-01 10:00:00', '2024-05-01T10:00:00.250Z', '2024-05-01', 1714557600, 1714557600250, 2460431.5, 'a');
        INSERT INTO ev VALUES (2, '2024-06-01 00:00:00', '2024-06-01T00:00:00.000Z', '2024-06-01', 1717200000, 1717200000000, 2460462.5, 'b');
        """
    static let may1 = Date(timeIntervalSince1970: 1_714_557_600)  // 2024-05-01T10:00:00Z
    static let may1Midnight = Date(timeIntervalSince1970: 1_714_521_600)

    static func open(_ dir: TempDir) throws -> (PersistentStore, String) {
        let path = dir.path("dates.sqlite")
        let made = try runSQLite(path, schema)
        #expect(made.status == 0, "\(made.err)")
        return (try PersistentStore.openAny(url: URL(fileURLWithPath: path), model: nil, options: StoreOptions(createIfMissing: false)), path)
    }

    static func stored(_ path: String, _ id: Int) throws -> String {
        try sqliteScalar(path, "SELECT typeof(iso)||' '||iso||'|'||isoT||'|'||day||'|'||typeof(unix)||' '||unix||'|'||typeof(ms)||' '||ms||'|'||typeof(julian)||' '||julian FROM ev WHERE id = \(id)")
    }

    @Test func datesStoredFourWaysAreDates() throws {
        let dir = TempDir()
        let (store, _) = try Self.open(dir)
        let ev = try #require(store.model.entity(named: "ev"))
        for name in ["iso", "isoT", "day", "unix", "ms", "julian"] { #expect(ev.attribute(named: name)?.type == .date, "\(name)") }
        #expect(ev.declaration.userInfo[ForeignMappingKeys.dateStorage("iso")] == "text YYYY-MM-DD HH:MM:SS")
        #expect(ev.declaration.userInfo[ForeignMappingKeys.dateStorage("isoT")] == "text YYYY-MM-DDTHH:MM:SS.SSSZ")
        #expect(ev.declaration.userInfo[ForeignMappingKeys.dateStorage("day")] == "text YYYY-MM-DD")
        #expect(ev.declaration.userInfo[ForeignMappingKeys.dateStorage("unix")] == "unixSeconds")
        #expect(ev.declaration.userInfo[ForeignMappingKeys.dateStorage("ms")] == "unixMilliseconds")
        #expect(ev.declaration.userInfo[ForeignMappingKeys.dateStorage("julian")] == "julianDay")
        let row = try #require(try ManagedObjectContext(store: store).fetch("ev", where: QueryPredicate(format: "id == 1")).first)
        #expect(try row["iso"] == .date(Self.may1))
        #expect(try row["isoT"] == .date(Self.may1.addingTimeInterval(0.25)))
        #expect(try row["day"] == .date(Self.may1Midnight))
        #expect(try row["unix"] == .date(Self.may1))
        #expect(try row["ms"] == .date(Self.may1.addingTimeInterval(0.25)))
        #expect(try row["julian"] == .date(Self.may1Midnight))
    }

    @Test func editedDatesAreWrittenInTheFormTheColumnStores() throws {
        let dir = TempDir()
        let (store, path) = try Self.open(dir)
        let untouched = try Self.stored(path, 2)
        let c = try ManagedObjectContext(store: store)
        let row = try #require(try c.fetch("ev", where: QueryPredicate(format: "id == 1")).first)
        let later = Self.may1.addingTimeInterval(86_400 + 60)  // 2024-05-02T10:01:00Z
        for name in ["iso", "isoT", "unix", "ms"] { try row.setValue(.date(later), forKey: name) }
        try row.setValue(.date(Self.may1Midnight.addingTimeInterval(86_400)), forKey: "day")
        try row.setValue(.date(Self.may1Midnight.addingTimeInterval(86_400)), forKey: "julian")
        try c.save()
        #expect(try Self.stored(path, 1) == "text 2024-05-02 10:01:00|2024-05-02T10:01:00.000Z|2024-05-02|integer 1714644060|integer 1714644060000|real 2460432.5")
        #expect(try Self.stored(path, 2) == untouched)
        // Read back as the same dates, through a fresh store.
        let again = try ManagedObjectContext(store: PersistentStore.openAny(url: URL(fileURLWithPath: path), model: nil, options: StoreOptions(createIfMissing: false)))
        let reread = try #require(try again.fetch("ev", where: QueryPredicate(format: "id == 1")).first)
        for name in ["iso", "isoT", "unix", "ms"] { #expect(try reread[name] == .date(later), "\(name)") }
    }

    @Test func predicatesAndSortsCompareStoredDatesAsDates() throws {
        let dir = TempDir()
        let (store, _) = try Self.open(dir)
        let c = try ManagedObjectContext(store: store)
        for name in ["iso", "isoT", "day", "unix", "ms", "julian"] {
            let after = try c.fetch("ev", where: QueryPredicate(format: "\(name) > %@", .date(Self.may1.addingTimeInterval(86_400))))
            #expect(after.count == 1, "\(name)")
            #expect(try after.first?["label"] == .string("b"), "\(name)")
            let exact = try c.fetch("ev", where: QueryPredicate(format: "\(name) == %@", .date(Self.may1Midnight)))
            #expect(exact.count == (["day", "julian"].contains(name) ? 1 : 0), "\(name)")
            let sorted = try c.fetch(FetchRequest(entityName: "ev", sortDescriptors: [QuerySortDescriptor(name, ascending: false)]))
            #expect(try sorted.map { try $0["label"] } == [.string("b"), .string("a")], "\(name)")
        }
    }

    @Test func chinookInvoiceDatesAreDatesWrittenBackAsText() throws {
        let dir = TempDir()
        let (copy, original) = try SQLiteFixtures.copy("chinook.sqlite", into: dir)
        let store = try PersistentStore.openAny(url: copy, model: nil, options: StoreOptions(createIfMissing: false))
        #expect(store.model.entity(named: "Invoice")?.attribute(named: "InvoiceDate")?.type == .date)
        let before = try sqliteScalar(copy.path, "SELECT InvoiceDate FROM Invoice WHERE InvoiceId = 1")
        let c = try ManagedObjectContext(store: store)
        let invoice = try #require(try c.fetch("Invoice", where: QueryPredicate(format: "InvoiceId == 1")).first)
        let date = try #require(try invoice["InvoiceDate"].dateValue)
        try invoice.setValue(.date(date.addingTimeInterval(86_400 + 3_600)), forKey: "InvoiceDate")
        try c.save()
        let after = try sqliteScalar(copy.path, "SELECT typeof(InvoiceDate) || ' ' || InvoiceDate FROM Invoice WHERE InvoiceId = 1")
        #expect(after == "text " + ISODate.text(date.addingTimeInterval(90_000)).replacingOccurrences(of: "T", with: " ").dropLast())
        #expect(before.count == 19)
        #expect(SQLiteFixtures.originalUnchanged("chinook.sqlite", original))
    }

    /// A mapping that marks a text column `date` (the issue's "edit the inferred model")
    /// with no `sqlite.dateStorage` entry: the layout reads how the column stores its dates
    /// from its values, as inference does, so dates read as dates and are written back in
    /// the column's own form. A column whose values are no dates is refused, naming it.
    @Test func aTextColumnMarkedDateInAMappingIsReadAndWrittenInItsStoredForm() throws {
        let dir = TempDir()
        let path = dir.path("notes.sqlite")
        #expect(try runSQLite(path, """
            CREATE TABLE note (id INTEGER PRIMARY KEY, due TEXT, stamp INTEGER, body TEXT);
            INSERT INTO note VALUES (1, '2024-05-01 10:00:00', 1714557600, 'a'), (2, '2024-06-01 00:00:00', 1717200000, 'b');
            """).status == 0)
        let url = URL(fileURLWithPath: path)
        let inferred = try PersistentStore.openAny(url: url, model: nil, options: StoreOptions(createIfMissing: false))
        #expect(inferred.model.entity(named: "note")?.attribute(named: "due")?.type == .string)
        let json = String(decoding: inferred.model.jsonData(), as: UTF8.self)
        let edited = json.replacingOccurrences(of: """
            "name" : "due",
                      "type" : "string"
            """, with: """
            "name" : "due",
                      "type" : "date"
            """).replacingOccurrences(of: """
            "name" : "stamp",
                      "type" : "integer64"
            """, with: """
            "name" : "stamp",
                      "type" : "date"
            """)
        #expect(edited.components(separatedBy: "\"date\"").count == 3, "\(json)")
        let store = try PersistentStore.openAny(url: url, model: try ManagedObjectModel.fromJSON(Data(edited.utf8)), options: StoreOptions(createIfMissing: false))
        let c = try ManagedObjectContext(store: store)
        let first = try #require(try c.fetch("note", where: QueryPredicate(format: "id == 1")).first)
        #expect(try first["due"] == .date(Self.may1))
        #expect(try first["stamp"] == .date(Self.may1))
        #expect(try c.fetch("note", where: QueryPredicate(format: "due > %@", .date(Self.may1))).count == 1)
        try first.setValue(.date(Self.may1.addingTimeInterval(86_400)), forKey: "due")
        try first.setValue(.date(Self.may1.addingTimeInterval(86_400)), forKey: "stamp")
        try c.save()
        #expect(try sqliteScalar(path, "SELECT typeof(due) || ' ' || due || '|' || typeof(stamp) || ' ' || stamp FROM note WHERE id = 1")
            == "text 2024-05-02 10:00:00|integer 1714644000")

        let wrong = edited.replacingOccurrences(of: """
            "name" : "body",
                      "type" : "string"
            """, with: """
            "name" : "body",
                      "type" : "date"
            """)
        #expect(wrong != edited)
        #expect {
            _ = try PersistentStore.openAny(url: url, model: try ManagedObjectModel.fromJSON(Data(wrong.utf8)), options: StoreOptions(createIfMissing: false))
        } throws: { error in
            "\(error)".contains("attribute body: column 'body' of 'note' holds no dates")
        }
    }
}
