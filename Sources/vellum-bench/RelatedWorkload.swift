import CSQLite
import Foundation
import VellumStore

/// A bulk import with a relationship: 100,000 `Item`s, each given one of 10
/// `Provider`s through the to-one `provider` (whose inverse, `items`, grows to
/// 10,000 objects per provider in memory), one save.
enum RelatedWorkload {
    static let rowCount = 100_000
    static let providerCount = 10

    static func model() throws -> ManagedObjectModel {
        try ModelBuilder()
            .entity("Provider") {
                $0.attribute("name", .string, optional: false)
                $0.toMany("items", "Item", inverse: "provider")
            }
            .entity("Item") {
                $0.attribute("name", .string, optional: false)
                $0.attribute("price", .double)
                $0.toOne("provider", "Provider", inverse: "items")
            }
            .build()
    }

    /// Creates the store with the providers (untimed), then times one context
    /// inserting every item, relating it, and one save.
    static func vellumInsert(at url: URL) throws -> Double {
        let store = try PersistentStore(url: url, model: try model())
        do {
            let setup = try ManagedObjectContext(store: store)
            for p in 0..<providerCount { try setup.insert("Provider", values: ["name": .string("provider \(p)")]) }
            try setup.save()
        }
        var failure: (any Error)?
        let ms = Timing.milliseconds {
            do {
                let ctx = try ManagedObjectContext(store: store)
                let providers = try ctx.fetch("Provider", sortedBy: [QuerySortDescriptor("name")])
                guard let item = ctx.model.entity(named: "Item"), let name = item.attributeIndexByName["name"],
                      let price = item.attributeIndexByName["price"] else { throw BenchError("no Item entity") }
                for i in 0..<rowCount {
                    let o = try ctx.insert(item)
                    try o.setValue(.string("item \(i)"), at: name)
                    try o.setValue(.double(Double(i) / 4), at: price)
                    try o.setToOne("provider", providers[i % providerCount])
                }
                _ = try ctx.save()
            } catch { failure = error }
        }
        if let failure { throw failure }
        return ms
    }

    /// The same rows with their foreign key, one prepared statement, one transaction.
    static func rawInsert(at path: String) throws -> Double {
        let raw = try RecordWorkload.RawDB(path: path)
        let layout = NativeLayout(model: try model())
        for sql in layout.schemaSQL() { try raw.exec(sql) }
        guard case .foreignKey(let fk)? = layout.mapping(for: "Item")?.relationshipStorage.first else { throw BenchError("no foreign key") }
        for p in 0..<providerCount {
            try raw.exec("INSERT INTO \"Provider\" (\"_pk\", \"_entity\", \"_version\", \"name\") VALUES (\(p + 1), 'Provider', 1, 'provider \(p)')")
        }
        var failure: (any Error)?
        let ms = Timing.milliseconds {
            do {
                let s = try raw.prepare("INSERT INTO \"Item\" (\"_pk\", \"_entity\", \"_version\", \"name\", \"price\", \(quoteIdentifier(fk))) VALUES (?, ?, ?, ?, ?, ?)")
                defer { sqlite3_finalize(s) }
                try raw.exec("BEGIN IMMEDIATE")
                for i in 0..<rowCount {
                    sqlite3_bind_int64(s, 1, Int64(i + 1))
                    RecordWorkload.bindText(s, 2, "Item")
                    sqlite3_bind_int64(s, 3, 1)
                    RecordWorkload.bindText(s, 4, "item \(i)")
                    sqlite3_bind_double(s, 5, Double(i) / 4)
                    sqlite3_bind_int64(s, 6, Int64(i % providerCount + 1))
                    try raw.step(s)
                }
                try raw.exec("COMMIT")
            } catch { failure = error }
        }
        if let failure { throw failure }
        return ms
    }
}
