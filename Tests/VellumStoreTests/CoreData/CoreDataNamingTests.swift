import Foundation
import Testing
@testable import VellumStore

/// `CoreDataNaming` from each fixture's recovered model against the store's real schema.
@Suite struct CoreDataNamingTests {
    static func sql(_ copy: CoreDataFixtureCopy, _ query: String) throws -> [String] {
        try sqliteRows("file:\(copy.url.path)?immutable=1", query)
    }

    @Test(arguments: try CoreDataFixtureCopy.storeNames())
    func tablesColumnsAndNumbersMatchTheSchema(store: String) throws {
        let copy = try CoreDataFixtureCopy(store)
        let file = try CoreDataStoreFile(path: copy.url.path)
        let model = try file.recoverModel().model
        let naming = CoreDataNaming(model: model)
        for root in model.rootEntities {
            let table = try #require(naming.tables[root.name])
            let actual = Set(try Self.sql(copy, "SELECT name FROM pragma_table_info('\(table)')"))
                .subtracting(["Z_PK", "Z_ENT", "Z_OPT"])
            let expected = Set(root.hierarchyNames.flatMap { naming.columns[$0]?.values.map { $0 } ?? [] })
            // CoreDataBooks' ZCONTENTS was added with ALTER TABLE, outside the model.
            #expect(actual.subtracting(expected) == (store == "CoreDataBooks.sqlite" ? ["ZCONTENTS"] : []), "\(store) \(table)")
            #expect(expected.subtracting(actual).isEmpty, "\(store) \(table)")
            for name in root.hierarchyNames { #expect(naming.tables[name] == table) }
        }
        // Entity numbers equal Z_PRIMARYKEY's, except for a renamed entity's stale name.
        let renamed = ["ExpensiveSportCar": "LuxuryCar"]
        for row in try file.primaryKeyRows() {
            let name = model.entity(named: row.name) == nil ? renamed[row.name] ?? row.name : row.name
            #expect(naming.entityNumbers[name] == row.number, "\(store) \(row.name)")
        }
        #expect(copy.originalUnchanged())
    }

    @Test(arguments: try CoreDataFixtureCopy.storeNames())
    func indexNamesMatchTheSchema(store: String) throws {
        let copy = try CoreDataFixtureCopy(store)
        let model = try CoreDataStoreFile(path: copy.url.path).recoverModel().model
        let naming = CoreDataNaming(model: model)
        for root in model.rootEntities {
            let table = try #require(naming.tables[root.name])
            let actual = Set(try Self.sql(copy, "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = '\(table)' AND name NOT LIKE 'sqlite_autoindex%'"))
            let expected = naming.indexNames(root: root.name)
            let unique = expected.filter { $0.contains("_UNIQUE_") }
            #expect(actual.subtracting(unique) == expected.subtracting(unique), "\(store) \(table)")
            // Older stores declare uniqueness as a table constraint instead of an index.
            let tableSQL = try Self.sql(copy, "SELECT sql FROM sqlite_master WHERE name = '\(table)'").joined()
            for name in unique { #expect(actual.contains(name) || tableSQL.contains(" UNIQUE ("), "\(store) \(name)") }
        }
        #expect(copy.originalUnchanged())
    }

    @Test func sameNamedPropertiesOfSiblingsGetSuffixes() throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Item", attributes: [AttributeDescription(name: "id", type: .integer64)]),
            EntityDescription(name: "Book", parent: "Item", attributes: [AttributeDescription(name: "title", type: .string)]),
            EntityDescription(name: "Film", parent: "Item", attributes: [AttributeDescription(name: "title", type: .string),
                                                                         AttributeDescription(name: "cache", type: .string, isTransient: true)]),
        ])
        let naming = CoreDataNaming(model: model)
        #expect(naming.column(entity: "Book", property: "title") == "ZTITLE")
        #expect(naming.column(entity: "Film", property: "title") == "ZTITLE1")
        #expect(naming.column(entity: "Film", property: "id") == "ZID")
        #expect(naming.column(entity: "Film", property: "cache") == nil)
        #expect(naming.entityNumbers == ["Item": 1, "Book": 2, "Film": 3])
        #expect(Set(naming.tables.values) == ["ZITEM"])
    }
}
