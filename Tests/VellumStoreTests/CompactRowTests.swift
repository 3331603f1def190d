import Foundation
import Testing
@testable import VellumStore
import VellumTestSupport

/// Fetched rows are kept in `CompactRow`'s byte form and decoded on access: every
/// value must come back exactly as it went in, at every position of rows of every
/// width, and objects read from a store must not be able to tell.
@Suite("Compact rows")
struct CompactRowTests {
    /// Values compare by their bits here: `.double(.nan) != .double(.nan)`.
    static func same(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.double(let x), .double(let y)): return x.bitPattern == y.bitPattern
        case (.date(let x), .date(let y)): return x.timeIntervalSinceReferenceDate.bitPattern == y.timeIntervalSinceReferenceDate.bitPattern
        default: return a == b
        }
    }

    static func randomValue(_ random: inout SeededRandom) -> Value {
        let texts = ["", "a", "record number 12345", "Ärger über σς Σ", "日本語のテキスト", "🧑‍🚀 e\u{301}", String(repeating: "x", count: 300)]
        let integers: [Int64] = [0, 1, -1, 63, 64, -64, -65, 127, 128, 300, Int64(Int32.max), Int64(Int32.min), .max, .min]
        let doubles: [Double] = [0, -0.0, 1.5, -2.25, .infinity, -.infinity, .nan, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 1 / 3]
        switch random.next() % 9 {
        case 0: return .null
        case 1: return .bool(random.next() % 2 == 0)
        case 2: return .integer(random.next() % 2 == 0 ? integers[Int(random.next() % UInt64(integers.count))] : Int64(bitPattern: random.next()))
        case 3: return .double(random.next() % 2 == 0 ? doubles[Int(random.next() % UInt64(doubles.count))] : Double(bitPattern: random.next()))
        case 4: return .string(texts[Int(random.next() % UInt64(texts.count))])
        case 5: return .date(Date(timeIntervalSinceReferenceDate: Double(Int64(bitPattern: random.next()) % 10_000_000_000) / 1000))
        case 6: return .data(Data((0..<Int(random.next() % 40)).map { _ in UInt8(truncatingIfNeeded: random.next()) }))
        case 7: return .uuid(UUID())
        default: return .string(String(repeating: "é", count: Int(random.next() % 20)))
        }
    }

    static func encode(_ values: [Value], _ encoder: CompactRowEncoder = CompactRowEncoder()) -> (bytes: [UInt8], isValid: Bool) {
        encoder.begin(width: values.count)
        for v in values { encoder.append(v) }
        return (Array(encoder.bytes), encoder.isValid)
    }

    @Test func everyValueComesBackAtEveryPositionOfRowsOfEveryWidth() {
        let seed = SeededRandom.seedFromEnvironment()
        var random = SeededRandom(seed: seed)
        let encoder = CompactRowEncoder()  // reused, as a fetch reuses it
        for round in 0..<600 {
            let width = 1 + round % 41
            let values = (0..<width).map { _ in Self.randomValue(&random) }
            let (bytes, isValid) = Self.encode(values, encoder)
            #expect(isValid)
            bytes.withUnsafeBytes { row in
                for i in 0..<width {
                    let read = CompactRow.value(at: i, of: row.baseAddress!, width: width)
                    #expect(Self.same(read, values[i]), "seed \(seed), width \(width), value \(i): \(read) instead of \(values[i])")
                }
                let all = CompactRow.values(of: row.baseAddress!, width: width)
                #expect(all.count == width && zip(all, values).allSatisfy(Self.same), "seed \(seed), width \(width): the whole row differs")
            }
        }
    }

    @Test func aDecimalOrURLHasNoCompactForm() {
        #expect(!Self.encode([.integer(1), .decimal(Decimal(string: "1.25")!)]).isValid)
        #expect(!Self.encode([.uri(URL(string: "https://example.com/a")!), .null]).isValid)
        #expect(Self.encode([.integer(1), .string("1.25")]).isValid)
    }

    /// Checkpoints are 16-bit offsets: a row whose value after a checkpoint starts past
    /// 64 KB stays in values; one just under it is read back through the checkpoint.
    @Test func aCheckpointPastSixtyFourKilobytesMakesTheRowInvalid() {
        let n = CompactRow.stride
        let long = Value.string(String(repeating: "a", count: 70_000))
        let first = [long] + Array(repeating: Value.integer(7), count: n - 1)
        #expect(Self.encode(first).isValid, "no checkpoint in a row of \(n) values")
        #expect(!Self.encode(first + [.integer(9)]).isValid)
        let short = Self.encode(Array(repeating: Value.string(String(repeating: "b", count: 60_000 / n)), count: n) + [.integer(9)])
        #expect(short.isValid, "60,000 bytes before the checkpoint fit")
        short.bytes.withUnsafeBytes { #expect(CompactRow.value(at: n, of: $0.baseAddress!, width: n + 1) == .integer(9)) }
    }

    // MARK: - Objects read from a store

    static func everyTypeModel(width: Int) throws -> ManagedObjectModel {
        try ModelBuilder()
            .entity("Item") {
                $0.attribute("text", .string)
                $0.attribute("small", .integer16)
                $0.attribute("medium", .integer32)
                $0.attribute("large", .integer64)
                $0.attribute("real", .double)
                $0.attribute("single", .float)
                $0.attribute("flag", .boolean)
                $0.attribute("when", .date)
                $0.attribute("blob", .binary)
                $0.attribute("id", .uuid)
                $0.attribute("amount", .decimal)
                $0.attribute("link", .uri)
                for i in 0..<width { $0.attribute("extra\(i)", .string) }
            }
            .build()
    }

    static func randomItem(_ random: inout SeededRandom, extras: Int) -> [String: Value] {
        func maybe(_ v: Value) -> Value { random.next() % 5 == 0 ? .null : v }
        var d: [String: Value] = [
            "text": maybe(.string(["", "record number \(random.next() % 1000)", "Ärger σς", "🧑‍🚀"][Int(random.next() % 4)])),
            "small": maybe(.integer(Int64(Int16(truncatingIfNeeded: random.next())))),
            "medium": maybe(.integer(Int64(Int32(truncatingIfNeeded: random.next())))),
            "large": maybe(.integer(Int64(bitPattern: random.next()))),
            "real": maybe(.double(Double(Int64(bitPattern: random.next()) % 1_000_000) / 7)),
            "single": maybe(.double(Double(Float(Int32(truncatingIfNeeded: random.next()) % 1000) / 4))),
            "flag": maybe(.bool(random.next() % 2 == 0)),
            "when": maybe(.date(Date(timeIntervalSince1970: Double(random.next() % 2_000_000_000) + 0.25))),
            "blob": maybe(.data(Data((0..<Int(random.next() % 10)).map { UInt8($0) }))),
            "id": maybe(.uuid(UUID())),
            // Decimals and URLs on some rows only: those rows stay in values.
            "amount": random.next() % 4 == 0 ? .decimal(Decimal(string: "12.\(random.next() % 100)")!) : .null,
            "link": random.next() % 4 == 0 ? .uri(URL(string: "https://example.com/\(random.next() % 100)")!) : .null,
        ]
        for i in 0..<extras { d["extra\(i)"] = maybe(.string("extra \(i) \(random.next() % 100)")) }
        return d
    }

    /// Objects fetched into another context read what was saved, value by value, by name
    /// and by index, in rows of every kind, with and without checkpoints.
    @Test(arguments: [0, 9]) func fetchedObjectsReadWhatWasSaved(extras: Int) throws {
        let dir = TempDir()
        let seed = SeededRandom.seedFromEnvironment()
        var random = SeededRandom(seed: seed)
        let model = try Self.everyTypeModel(width: extras)
        let store = try PersistentStore(url: dir.file("items.sqlite"), model: model)
        let writer = try ManagedObjectContext(store: store)
        var saved: [[String: Value]] = []
        for _ in 0..<300 {
            let d = Self.randomItem(&random, extras: extras)
            let o = try writer.insert("Item", values: d)
            saved.append(try o.dictionaryOfValues())
        }
        _ = try writer.save()
        let reader = try ManagedObjectContext(store: store)
        let fetched = try reader.fetch(FetchRequest(entityName: "Item", sortDescriptors: [QuerySortDescriptor("text"), QuerySortDescriptor("large")]))
        #expect(fetched.count == saved.count)
        let byKey = Dictionary(uniqueKeysWithValues: try writer.fetch(FetchRequest(entityName: "Item")).map { ($0.objectID, try $0.dictionaryOfValues()) })
        for o in fetched {
            let expected = try #require(byKey[o.objectID])
            for (i, a) in o.entity.attributes.enumerated() {
                let read = try o.value(at: i)
                #expect(Self.same(read, expected[a.name]!), "seed \(seed): \(a.name) of \(o.objectID) read \(read), saved \(expected[a.name]!)")
            }
            #expect(!o.hasChanges)
            // The rows under test are compact: all but those holding a decimal or URL.
            let hasNoCompactForm = expected["amount"]?.isNull == false || expected["link"]?.isNull == false
            #expect(o.rowIsCompact == !hasNoCompactForm, "seed \(seed): \(o.objectID) compact \(o.rowIsCompact)")
        }
        #expect(fetched.contains { $0.rowIsCompact })
    }

    static func saveProduct(_ values: [String: Value], in store: PersistentStore) throws {
        let writer = try ManagedObjectContext(store: store)
        _ = try writer.insert("Product", values: values)
        _ = try writer.save()
    }

    /// The first change to a fetched object decodes its row into values of its own: the
    /// change, the values around it, the committed snapshot and the next save all hold.
    @Test func changingAFetchedObjectKeepsItsOtherValuesAndItsSnapshot() throws {
        let dir = TempDir()
        let store = try Fixtures.openShop(dir)
        try Self.saveProduct(["name": .string("A lamp with a long name"), "price": .double(12.5)], in: store)
        let reader = try ManagedObjectContext(store: store)
        let lamp = try #require(try reader.fetch(FetchRequest(entityName: "Product")).first)
        #expect(lamp.rowIsCompact)
        let before = try lamp.dictionaryOfValues()
        try lamp.setValue(.double(14), forKey: "price")
        #expect(try lamp.value(forKey: "price") == .double(14))
        #expect(try lamp.value(forKey: "name") == .string("A lamp with a long name"))
        #expect(try lamp.committedValues() == before)
        #expect(lamp.changedKeys == ["price"])
        #expect(!lamp.rowIsCompact, "changed: its values are its own")
        _ = try reader.save()
        let again = try ManagedObjectContext(store: store)
        let stored = try #require(try again.fetch(FetchRequest(entityName: "Product")).first)
        #expect(try stored.dictionaryOfValues() == (before.merging(["price": .double(14)]) { $1 }))
        reader.rollback()
        #expect(try lamp.value(forKey: "price") == .double(14), "saved: nothing to roll back")
    }

    /// A value another program wrote in the wrong storage class (text in an integer column)
    /// is decoded as leniently as before.
    @Test func aValueOfAnotherStorageClassReadsAsBefore() throws {
        let dir = TempDir()
        let store = try Fixtures.openShop(dir)
        try Self.saveProduct(["name": .string("Lamp"), "price": .double(1)], in: store)
        try Connection(path: dir.file("shop.sqlite").path).execute("UPDATE \"Product\" SET \"price\" = '44.25', \"name\" = 7")
        let reader = try ManagedObjectContext(store: store)
        let lamp = try #require(try reader.fetch(FetchRequest(entityName: "Product")).first)
        #expect(try lamp.value(forKey: "price") == .double(44.25))
        #expect(try lamp.value(forKey: "name") == .string("7"))
    }
}
