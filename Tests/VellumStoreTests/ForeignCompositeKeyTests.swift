import Foundation
import Testing
import VellumTestSupport
@testable import VellumStore

/// Issue 13: a foreign key of several columns (`FOREIGN KEY (order_id, line_no) REFERENCES
/// line`) is a to-one with an inverse to-many, as a single column's is: followed both ways,
/// crossed by predicates, written as the referenced values (what `sqlite3` reads), deleted by
/// its `ON DELETE` action, and kept through a saved mapping. Such keys used to stay plain attributes.
@Suite(.serialized) struct ForeignCompositeKeyTests {
    static let orders = """
        CREATE TABLE orders (id INTEGER PRIMARY KEY, customer TEXT);
        CREATE TABLE line (order_id INTEGER NOT NULL REFERENCES orders (id) ON DELETE CASCADE, line_no INTEGER NOT NULL,
                           product TEXT, PRIMARY KEY (order_id, line_no));
        CREATE TABLE shipment (id INTEGER PRIMARY KEY, carrier TEXT, order_id INTEGER, line_no INTEGER,
                               FOREIGN KEY (order_id, line_no) REFERENCES line (order_id, line_no) ON DELETE CASCADE);
        CREATE TABLE room (id INTEGER PRIMARY KEY, building TEXT NOT NULL, number INTEGER NOT NULL, UNIQUE (building, number));
        CREATE TABLE booking (id INTEGER PRIMARY KEY, who TEXT, building TEXT, room_number INTEGER,
                              FOREIGN KEY (building, room_number) REFERENCES room (building, number) ON DELETE SET NULL);
        INSERT INTO orders VALUES (1, 'ann'), (2, 'bob');
        INSERT INTO line VALUES (1, 1, 'tea'), (1, 2, 'cups'), (2, 1, 'pot');
        INSERT INTO shipment (carrier, order_id, line_no) VALUES ('DHL', 1, 1), ('UPS', 1, 1), ('DHL', 2, 1), ('none', NULL, NULL);
        INSERT INTO room (building, number) VALUES ('A', 101), ('A', 102), ('B', 101);
        INSERT INTO booking (who, building, room_number) VALUES ('ann', 'A', 101), ('bob', 'B', 101);
        """

    static func names(_ objects: [ManagedObject], _ key: String) throws -> [String] {
        try objects.map { try $0.value(forKey: key).stringValue ?? "" }.sorted()
    }

    static func one(_ c: ManagedObjectContext, _ entity: String, _ format: String) throws -> ManagedObject {
        try #require(try c.fetch(entity, where: QueryPredicate(format: format)).first)
    }

    @Test func aCompositeForeignKeyIsAToOneWithAnInverseToMany() throws {
        let dir = TempDir()
        let (store, _) = try ForeignGeneratedTests.make(dir, Self.orders)
        let shipment = try #require(store.model.entity(named: "shipment"))
        #expect(shipment.attributes.map(\.name) == ["id", "carrier"])
        let line = try #require(shipment.relationship(named: "line"))
        #expect(!line.isToMany && line.destination == "line" && line.inverse == "shipments" && line.isOptional)
        let shipments = try #require(store.model.entity(named: "line")?.relationship(named: "shipments"))
        #expect(shipments.isToMany && shipments.deleteRule == .cascade)
        let booking = try #require(store.model.entity(named: "booking"))
        #expect(booking.attributes.map(\.name) == ["id", "who"])
        #expect(booking.relationship(named: "room")?.destination == "room")
        #expect(store.model.entity(named: "room")?.relationship(named: "bookings")?.deleteRule == .nullify)
        #expect(shipment.declaration.userInfo["sqlite.foreignKey.line"] == #"["order_id","line_no"]"#)

        let c = try ManagedObjectContext(store: store)
        let ups = try Self.one(c, "shipment", "carrier == 'UPS'")
        #expect(try ups.toOne("line")?["product"] == .string("tea"))
        #expect(try Self.one(c, "shipment", "carrier == 'none'").toOne("line") == nil)
        let tea = try Self.one(c, "line", "product == 'tea'")
        #expect(try Self.names(tea.toMany("shipments"), "carrier") == ["DHL", "UPS"])
        #expect(try Self.names(c.fetch("shipment", where: QueryPredicate(format: "line.product == 'pot'")), "carrier") == ["DHL"])
        #expect(try Self.names(c.fetch("line", where: QueryPredicate(format: "ANY shipments.carrier == 'UPS'")), "product") == ["tea"])
        #expect(try Self.names(c.fetch("line", where: QueryPredicate(format: "shipments.@count == 0")), "product") == ["cups"])
        #expect(try Self.names(c.fetch("shipment", where: QueryPredicate(format: "line == nil")), "carrier") == ["none"])
        let roomA101 = try Self.one(c, "room", "building == 'A' AND number == 101")
        #expect(try Self.names(roomA101.toMany("bookings"), "who") == ["ann"])
        #expect(try Self.one(c, "booking", "who == 'bob'").toOne("room")?["building"] == .string("B"))
    }

    /// Setting the to-one writes every column of the key (what `sqlite3` reads); clearing it writes NULLs.
    @Test func settingAndClearingTheToOneWritesEveryColumnOfTheKey() throws {
        let dir = TempDir()
        let (store, path) = try ForeignGeneratedTests.make(dir, Self.orders)
        let c = try ManagedObjectContext(store: store)
        let ups = try Self.one(c, "shipment", "carrier == 'UPS'")
        let cups = try Self.one(c, "line", "product == 'cups'")
        try ups.setToOne("line", cups)
        #expect(try Self.names(cups.toMany("shipments"), "carrier") == ["UPS"])
        try c.save()
        #expect(try sqliteScalar(path, "SELECT order_id || '/' || line_no FROM shipment WHERE carrier = 'UPS'") == "1/2")
        try Self.one(c, "shipment", "carrier == 'none'").setToOne("line", try Self.one(c, "line", "product == 'pot'"))
        try Self.one(c, "booking", "who == 'ann'").setToOne("room", nil)
        try c.save()
        #expect(try sqliteRows(path, "SELECT carrier || ':' || coalesce(order_id, 'null') || '/' || coalesce(line_no, 'null') FROM shipment ORDER BY id")
            == ["DHL:1/1", "UPS:1/2", "DHL:2/1", "none:2/1"])
        #expect(try sqliteRows(path, "SELECT who || ':' || coalesce(building, 'null') || '/' || coalesce(room_number, 'null') FROM booking ORDER BY id")
            == ["ann:null/null", "bob:B/101"])
        // Another context reads what was written.
        let fresh = try ManagedObjectContext(store: store)
        #expect(try Self.names(Self.one(fresh, "line", "product == 'pot'").toMany("shipments"), "carrier") == ["DHL", "none"])
    }

    /// New rows in one save: the new line is written before the new shipment that refers to
    /// it (its key columns exist only once its row does), and the shipment holds its values.
    @Test func aNewObjectReferringToANewTargetIsWrittenAfterIt() throws {
        let dir = TempDir()
        let (store, path) = try ForeignGeneratedTests.make(dir, Self.orders)
        let c = try ManagedObjectContext(store: store)
        let shipment = try c.insert("shipment", values: ["carrier": .string("FedEx")])
        let line = try c.insert("line", values: ["line_no": .integer(3), "product": .string("saucers")])
        try line.setToOne("order", try Self.one(c, "orders", "customer == 'bob'"))
        try shipment.setToOne("line", line)
        try c.save()
        #expect(try sqliteScalar(path, "SELECT order_id || '/' || line_no FROM shipment WHERE carrier = 'FedEx'") == "2/3")
        let fresh = try ManagedObjectContext(store: store)
        #expect(try Self.one(fresh, "shipment", "carrier == 'FedEx'").toOne("line")?["product"] == .string("saucers"))
    }

    /// `ON DELETE CASCADE` deletes the rows referring by a composite key; `SET NULL` clears every column.
    @Test func deletingATargetAppliesItsRuleToTheRowsReferringToIt() throws {
        let dir = TempDir()
        let (store, path) = try ForeignGeneratedTests.make(dir, Self.orders)
        let c = try ManagedObjectContext(store: store)
        try c.delete(try Self.one(c, "line", "product == 'tea'"))
        try c.delete(try Self.one(c, "room", "building == 'B'"))
        try c.save()
        #expect(try sqliteRows(path, "SELECT carrier FROM shipment ORDER BY id") == ["DHL", "none"])
        #expect(try sqliteRows(path, "SELECT who || ':' || coalesce(building, 'null') || '/' || coalesce(room_number, 'null') FROM booking ORDER BY id")
            == ["ann:A/101", "bob:null/null"])
        #expect(try Self.one(c, "booking", "who == 'bob'").toOne("room") == nil)
    }

    /// A to-one held in the row's own key columns (a composite key that is also a foreign key)
    /// is given on insert, and refused when changed, as any key column is.
    @Test func aToOneHeldInTheRowsKeyCannotBeChanged() throws {
        let dir = TempDir()
        let (store, path) = try ForeignGeneratedTests.make(dir, Self.orders + """

            CREATE TABLE line_note (order_id INTEGER NOT NULL, line_no INTEGER NOT NULL, note TEXT, PRIMARY KEY (order_id, line_no),
                                    FOREIGN KEY (order_id, line_no) REFERENCES line (order_id, line_no));
            INSERT INTO line_note VALUES (1, 1, 'fragile');
            """)
        #expect(store.model.entity(named: "line_note")?.attributes.map(\.name) == ["note"])
        let c = try ManagedObjectContext(store: store)
        let note = try Self.one(c, "line_note", "note == 'fragile'")
        #expect(try note.toOne("line")?["product"] == .string("tea"))
        let new = try c.insert("line_note", values: ["note": .string("gift")])
        try new.setToOne("line", try Self.one(c, "line", "product == 'pot'"))
        try c.save()
        #expect(try sqliteRows(path, "SELECT order_id || '/' || line_no || ':' || note FROM line_note ORDER BY 1") == ["1/1:fragile", "2/1:gift"])
        try note.setToOne("line", try Self.one(c, "line", "product == 'cups'"))
        #expect(throws: StoreError.self) { try c.save() }
        #expect(try sqliteRows(path, "SELECT order_id || '/' || line_no || ':' || note FROM line_note ORDER BY 1") == ["1/1:fragile", "2/1:gift"])
    }

    /// A column that already stands for a single-column to-one keeps it; the composite key
    /// over it stays columns (writing one column from two to-ones could not be kept apart).
    @Test func aCompositeKeySharingAColumnWithAnotherToOneStaysColumns() throws {
        let dir = TempDir()
        let (store, _) = try ForeignGeneratedTests.make(dir, Self.orders + """

            CREATE TABLE remark (id INTEGER PRIMARY KEY, order_id INTEGER REFERENCES orders (id), line_no INTEGER, body TEXT,
                                 FOREIGN KEY (order_id, line_no) REFERENCES line (order_id, line_no));
            """)
        let remark = try #require(store.model.entity(named: "remark"))
        #expect(remark.attributes.map(\.name) == ["id", "line_no", "body"])
        #expect(remark.relationships.map(\.name) == ["order"])
    }

    /// The inferred model saved as JSON and given back keeps the composite to-one; a mapping
    /// naming columns that declare no such key is refused, naming them.
    @Test func aSavedMappingKeepsTheCompositeToOneAndAWrongOneIsRefused() throws {
        let dir = TempDir()
        let (store, path) = try ForeignGeneratedTests.make(dir, Self.orders)
        let json = String(decoding: store.model.jsonData(), as: UTF8.self)
        let url = URL(fileURLWithPath: path)
        let mapped = try PersistentStore.openAny(url: url, model: try ManagedObjectModel.fromJSON(Data(json.utf8)),
                                                 options: StoreOptions(createIfMissing: false))
        let c = try ManagedObjectContext(store: mapped)
        #expect(try Self.one(c, "shipment", "carrier == 'UPS'").toOne("line")?["product"] == .string("tea"))

        let wrong = json.replacingOccurrences(of: #"[\"order_id\",\"line_no\"]"#, with: #"[\"line_no\",\"carrier\"]"#)
        #expect(wrong != json)
        #expect {
            _ = try PersistentStore.openAny(url: url, model: try ManagedObjectModel.fromJSON(Data(wrong.utf8)), options: StoreOptions(createIfMissing: false))
        } throws: { error in
            "\(error)".contains("relationship line: table 'shipment' declares no foreign key (line_no, carrier) to a key of 'line'")
        }
    }
}
