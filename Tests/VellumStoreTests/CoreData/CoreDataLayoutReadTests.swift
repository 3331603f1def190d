import Foundation
import Testing
@testable import VellumStore

/// Core Data stores opened as stores (`CoreDataLayout`): what fetches, counts, predicates,
/// sorts and relationships return equals what raw SQL over the `Z_` tables says, on copies
/// of every fixture store, and neither the copy nor the original changes.
@Suite struct CoreDataLayoutReadTests {
    /// A raw connection to the copy (no layout, no date epoch): the independent side of each comparison.
    static func raw(_ copy: CoreDataFixtureCopy) throws -> Connection {
        try Connection(path: PersistentStore.immutableURI(copy.url.path), options: .init(readOnly: true, journalModeWAL: false))
    }

    static func open(_ copy: CoreDataFixtureCopy) throws -> PersistentStore {
        try PersistentStore.openAny(url: copy.url, model: nil, options: StoreOptions(createIfMissing: false))
    }

    /// `Z_ENT` numbers of `entity` and its sub-entities, from `Z_PRIMARYKEY`'s `Z_SUPER` tree.
    static func numbers(of entity: String, _ raw: Connection, layout: CoreDataLayout) throws -> [Int64] {
        var found = [layout.entityNumbers[entity]!]
        var frontier = found
        while !frontier.isEmpty {
            let list = frontier.map(String.init).joined(separator: ",")
            frontier = try raw.rows("SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_SUPER IN (\(list))").compactMap { $0[0].integerValue }
            found += frontier
        }
        return found
    }

    @Test(arguments: try CoreDataFixtureCopy.storeNames())
    func everyFixtureStoreOpensWithCountsAndValuesAsStored(_ name: String) throws {
        let copy = try CoreDataFixtureCopy(name)
        let before = try copy.bytes()
        do {
            let store = try Self.open(copy)
            let layout = try #require(store.layout as? CoreDataLayout)
            let raw = try Self.raw(copy)
            let c = try ManagedObjectContext(store: store)
            for entityName in store.model.entityNames {
                let table = try #require(layout.table(of: entityName))
                let kinds = try Self.numbers(of: entityName, raw, layout: layout).map(String.init).joined(separator: ",")
                let expected = try raw.scalarInt("SELECT count(*) FROM \(table) WHERE Z_ENT IN (\(kinds))") ?? -1
                #expect(try c.count(FetchRequest(entityName: entityName)) == Int(expected), "\(name): \(entityName)")
                let m = try #require(layout.mapping(for: entityName))
                for o in try c.fetch(entityName) {
                    let pk = try #require(o.objectID.primaryKey)
                    for (i, a) in m.entity.attributes.enumerated() {
                        guard let column = m.attributeColumns[i] else { continue }
                        let stored = try raw.rows("SELECT \(column) FROM \(table) WHERE Z_PK = ?", [.integer(pk)])[0][0]
                        #expect(Self.matches(try o.value(at: i), stored: stored, type: a.type), "\(name): \(entityName) p\(pk).\(a.name)")
                    }
                }
            }
        }
        #expect(try copy.bytes() == before)
        #expect(copy.folderContents() == [name])
        #expect(copy.originalUnchanged())
    }

    /// A value read through the layout against the raw column: dates count from 2001.
    static func matches(_ value: Value, stored: Value, type: AttributeType) -> Bool {
        switch (value, stored) {
        case (.null, .null): return true
        case (.date(let d), .double(let s)): return d.timeIntervalSince1970 == s + 978_307_200
        case (.date(let d), .integer(let s)): return d.timeIntervalSince1970 == Double(s) + 978_307_200
        case (.bool(let b), .integer(let s)): return b == (s != 0)
        case (.integer(let i), .integer(let s)): return i == s
        case (.double(let d), .double(let s)): return d == s
        case (.double(let d), .integer(let s)): return d == Double(s)
        case (.string(let a), .string(let s)): return a == s
        case (.data(let a), .data(let s)): return a == s
        case (.uuid(let u), .data(let s)): return withUnsafeBytes(of: u.uuid) { Data($0) } == s
        default: return false
        }
    }

    @Test func predicatesSortsAndSubEntitiesMatchSQL() throws {
        let copy = try CoreDataFixtureCopy("Moody-v1.sqlite")
        let store = try Self.open(copy)
        let raw = try Self.raw(copy)
        let c = try ManagedObjectContext(store: store)
        // Sub-entities share ZGEOGRAPHICREGION: Country is Z_ENT 3, Continent 2.
        #expect(try c.count(FetchRequest(entityName: "Country")) == Int(try raw.scalarInt("SELECT count(*) FROM ZGEOGRAPHICREGION WHERE Z_ENT = 3") ?? -1))
        #expect(try c.count(FetchRequest(entityName: "Continent")) == Int(try raw.scalarInt("SELECT count(*) FROM ZGEOGRAPHICREGION WHERE Z_ENT = 2") ?? -1))
        // A predicate across a to-one, a sort on a date (stored since 2001), in the same order as SQL.
        let code = try #require(try raw.scalarInt("SELECT r.ZNUMERICISO3166CODE FROM ZMOOD m JOIN ZGEOGRAPHICREGION r ON r.Z_PK = m.ZCOUNTRY GROUP BY r.Z_PK ORDER BY count(*) DESC LIMIT 1"))
        let moods = try c.fetch("Mood", where: QueryPredicate(format: "country.numericISO3166Code == \(code)"), sortedBy: [QuerySortDescriptor("date", ascending: false)])
        let expected = try raw.rows("SELECT m.Z_PK FROM ZMOOD m JOIN ZGEOGRAPHICREGION r ON r.Z_PK = m.ZCOUNTRY WHERE r.ZNUMERICISO3166CODE = ? ORDER BY m.ZDATE DESC, m.Z_PK",
                                    [.integer(code)]).map { $0[0].integerValue }
        #expect(!expected.isEmpty)
        #expect(moods.map(\.objectID.primaryKey) == expected)
        // A date predicate: the bound date is stored against 2001 too.
        let middle = try #require(try raw.rows("SELECT CAST(ZDATE AS REAL) FROM ZMOOD ORDER BY ZDATE LIMIT 1 OFFSET 1").first?[0].doubleValue)
        let later = try c.count(FetchRequest(entityName: "Mood", predicate: QueryPredicate(format: "date > $d"),
                                             variables: ["d": .date(Date(timeIntervalSinceReferenceDate: middle))]))
        #expect(later == Int(try raw.scalarInt("SELECT count(*) FROM ZMOOD WHERE ZDATE > ?", [.double(middle)]) ?? -1))
        // To-many through the inverse's column, and a to-one back.
        let country = try #require(try raw.scalarInt("SELECT ZCOUNTRY FROM ZMOOD WHERE ZCOUNTRY IS NOT NULL LIMIT 1"))
        let region = try #require(try c.fetch("Country").first { $0.objectID.primaryKey == country })
        let theirMoods = try region.toMany("moods")
        #expect(theirMoods.count == Int(try raw.scalarInt("SELECT count(*) FROM ZMOOD WHERE ZCOUNTRY = ?", [.integer(country)]) ?? -1))
        #expect(try theirMoods.allSatisfy { try $0.toOne("country")?.objectID == region.objectID })
        #expect(try c.count(FetchRequest(entityName: "Country", predicate: QueryPredicate(format: "moods.@count > 0")))
                == Int(try raw.scalarInt("SELECT count(DISTINCT ZCOUNTRY) FROM ZMOOD") ?? -1))
        #expect(copy.originalUnchanged())
    }

    /// A model given for a Core Data store is used only when its version hashes equal the
    /// store's; another version is refused naming the entities that differ, file unchanged.
    @Test func aGivenModelMustMatchTheStoredHashes() throws {
        let copy = try CoreDataFixtureCopy("Moody-v2.sqlite")
        let before = try copy.bytes()
        let models = SharedFixtures.directory.appendingPathComponent("models")
        let v1 = try XcodeModelReader.read(url: models.appendingPathComponent("moody-v1.xcdatamodel.xml"))
        #expect { try PersistentStore.openAny(url: copy.url, model: v1, options: StoreOptions(createIfMissing: false)) } throws: { e in
            guard case StoreError.coreDataModelMismatch(_, _, let entities) = e else { return false }
            return entities.contains("Mood")
        }
        let v2 = try XcodeModelReader.read(url: models.appendingPathComponent("moody-v2.xcdatamodel.xml"))
        let store = try PersistentStore.openAny(url: copy.url, model: v2, options: StoreOptions(createIfMissing: false))
        #expect(store.writeRefusal == nil)
        #expect(try ManagedObjectContext(store: store).count(FetchRequest(entityName: "Mood")) == 4)
        #expect(try copy.bytes() == before)
        #expect(copy.originalUnchanged())
    }
}
