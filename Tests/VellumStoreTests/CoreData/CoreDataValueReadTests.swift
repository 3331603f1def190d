import Foundation
import Testing
@testable import VellumStore

/// Decimal and URI attributes as Core Data stores them (decimals REAL, whole ones coming back
/// as INTEGER; URIs as their string), on a small store with Core Data's layout; and
/// transformable values shown decoded when they are keyed archives of standard classes.
@Suite struct CoreDataValueReadTests {
    static let schema = """
        CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
        INSERT INTO Z_PRIMARYKEY VALUES (1, 'Item', 0, 3);
        CREATE TABLE ZITEM (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZPRICE DECIMAL, ZLINK VARCHAR);
        INSERT INTO ZITEM VALUES (1, 1, 1, 12.5, 'https://example.com/a?b=1'), (2, 1, 1, 3, 'file:///tmp/x%20y'), (3, 1, 1, NULL, NULL);
        """

    static func model() throws -> ManagedObjectModel {
        try ModelBuilder()
            .entity("Item") {
                $0.attribute("price", .decimal)
                $0.attribute("link", .uri)
            }
            .build()
    }

    @Test func decimalAndURIAttributesReadAsCoreDataStoresThem() throws {
        let dir = TempDir()
        let path = dir.path("z.sqlite")
        #expect(try sqliteShell(path, Self.schema) == 0)
        let store = try CoreDataRelationshipLayoutTests.open(path, model: Self.model())
        let c = try ManagedObjectContext(store: store)
        let items = try c.fetch("Item")
        let byKey = Dictionary(uniqueKeysWithValues: items.map { ($0.objectID.primaryKey!, $0) })
        #expect(try byKey[1]?["price"] == .decimal(Decimal(string: "12.5")!))
        #expect(try byKey[2]?["price"] == .decimal(3))
        #expect(try byKey[3]?["price"] == .null)
        #expect(try byKey[1]?["link"] == .uri(URL(string: "https://example.com/a?b=1")!))
        #expect(try byKey[2]?["link"] == .uri(URL(string: "file:///tmp/x%20y")!))
        #expect(try byKey[3]?["link"] == .null)
        // Predicates compare with the stored values.
        #expect(try c.count(FetchRequest(entityName: "Item", predicate: QueryPredicate(format: "price > 5"))) == 1)
        // Written back as Core Data stores them: a REAL, a string; Z_OPT + 1.
        try byKey[2]!.setValue(.decimal(Decimal(string: "4.25")!), forKey: "price")
        try byKey[2]!.setValue(.uri(URL(string: "https://example.org/")!), forKey: "link")
        try c.save()
        #expect(try sqliteShellOutput(path, "SELECT typeof(ZPRICE) || '|' || ZPRICE || '|' || typeof(ZLINK) || '|' || ZLINK || '|' || Z_OPT FROM ZITEM WHERE Z_PK = 2")
                == ["real|4.25|text|https://example.org/|2"])
    }

    @Test func keyedArchiveOfStandardClassesIsShownDecoded() throws {
        let root: NSDictionary = ["name": "Ada", "tags": ["a", "b"] as NSArray, "count": NSNumber(value: 3)]
        let data = try NSKeyedArchiver.archivedData(withRootObject: root, requiringSecureCoding: false)
        #expect(ArchivedValueText.decode(data) == .value(#"{"count": 3, "name": "Ada", "tags": ["a", "b"]}"#))
        #expect(ArchivedValueText.displayText(data) == #"{"count": 3, "name": "Ada", "tags": ["a", "b"]}"#)
        let date = try NSKeyedArchiver.archivedData(withRootObject: NSDate(timeIntervalSinceReferenceDate: 0), requiringSecureCoding: false)
        #expect(ArchivedValueText.decode(date) == .value("2001-01-01T00:00:00Z"))
    }

    @Test func otherArchivesAndBytesAreShownAsBytesWithTheReason() throws {
        // A keyed archive whose root is an app's class: an archived NSArray with its class names
        // replaced by one of the same length (`setClassName` is not honoured by Foundation on Linux).
        let archived = try NSKeyedArchiver.archivedData(withRootObject: ["red"] as NSArray, requiringSecureCoding: false)
        let data = Self.replacing(Data("NSArray".utf8), with: Data("MyColor".utf8), in: archived)
        guard case .undecoded(let className, let reason) = ArchivedValueText.decode(data) else {
            Issue.record("decoded \(ArchivedValueText.decode(data))"); return
        }
        #expect(className == "MyColor")
        #expect(reason.contains("MyColor is not a standard Foundation class"))
        #expect(ArchivedValueText.displayText(data)?.hasPrefix("<\(data.count) bytes 62706c6973743030…> MyColor (not decoded:") == true)
        // Damaged: a bplist header and nothing else.
        #expect(ArchivedValueText.decode(Data("bplist00".utf8)) == .notAnArchive)
        // Another transformer's bytes (Moody's colors) stay bytes.
        #expect(ArchivedValueText.decode(Data([0x01, 0x02, 0x03])) == .notAnArchive)
        #expect(ArchivedValueText.displayText(Data([0x01, 0x02])) == nil)
    }

    static func replacing(_ old: Data, with new: Data, in data: Data) -> Data {
        var out = data
        var start = out.startIndex
        while let r = out.range(of: old, in: start..<out.endIndex) {
            out.replaceSubrange(r, with: new)
            start = r.upperBound
        }
        return out
    }
}
