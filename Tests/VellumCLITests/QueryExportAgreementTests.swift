import Foundation
import Testing
import VellumStore

/// `vellum query --format csv|json` and the browser's `:export` write through one
/// formatter: for the same rows, the query's bytes are the export formatter's bytes.
@Suite("vellum query writes what :export writes", .serialized)
struct QueryExportAgreementTests {
    let dir = TempDir()
    var path: String { dir.path("shop.vellum") }

    init() throws { try CLIFixtures.makeShop(at: dir.path("shop.vellum")) }

    /// The query's columns (`_id`, attributes, to-one URIs) of every product by name, read through the store.
    func rows() throws -> (header: [String], rows: [[Value]]) {
        let store = try PersistentStore(url: URL(fileURLWithPath: path), model: nil, options: StoreOptions(createIfMissing: false))
        let context = try ManagedObjectContext(store: store)
        let entity = try #require(store.model.entity(named: "Product"))
        let columns = entity.attributes.filter { !$0.isTransient }.map(\.name)
        let toOnes = entity.relationships.filter { !$0.isToMany && !$0.isTransient }.map(\.name)
        let objects = try context.fetch(FetchRequest(entityName: "Product", sortDescriptors: try VellumStore.QuerySortDescriptor.parseList("name")))
        let rows: [[Value]] = try objects.map { o in
            [.string(o.objectID.uriString)] + (try columns.map { try o.value(forKey: $0) })
                + (try toOnes.map { r in try o.toOne(r).map { .string($0.objectID.uriString) } ?? .null })
        }
        return (["_id"] + columns + toOnes, rows)
    }

    @Test func csvBytesAreTheExportFormattersBytes() throws {
        let r = try VellumBinary.run(["query", path, "Product", "--sort", "name", "--format", "csv"])
        #expect(r.status == 0, "\(r.stderr)")
        let (header, rows) = try rows()
        #expect(rows.count == 4)
        #expect(r.stdout == ExportText.csv(header: header, rows: rows))
    }

    @Test func jsonBytesAreTheExportFormattersBytes() throws {
        let r = try VellumBinary.run(["query", path, "Product", "--sort", "name", "--format", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        let (header, rows) = try rows()
        #expect(r.stdout == ExportText.json(keys: header, rows: rows))
    }

    @Test func noRowsGiveTheSameEmptyArray() throws {
        let r = try VellumBinary.run(["query", path, "Product", "--where", "price > 1000", "--format", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == ExportText.json(keys: ["_id"], rows: []))
    }
}
