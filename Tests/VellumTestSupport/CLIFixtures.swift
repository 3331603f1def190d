import Foundation
import VellumStore

/// The models the CLI tests create stores from.
public enum CLIFixtures {
    /// Providers and products: required name, bounds, a regex, a uniqueness
    /// constraint, a deny rule, and every value type the formats print.
    public static func shopModel() throws -> ManagedObjectModel {
        try ModelBuilder()
            .entity("Provider") {
                $0.attribute("name", .string, optional: false, min: 1, max: 40)
                $0.toMany("products", "Product", inverse: "provider", deleteRule: .deny)
                $0.unique("name")
            }
            .entity("Product") {
                Fixtures.productAttributes(&$0)
                $0.attribute("photo", .binary)
                $0.toOne("provider", "Provider", inverse: "products")
                $0.unique("sku")
            }
            .build()
    }

    /// Everything a failed write to a shop store must leave alone: rows of both tables and the history count.
    public static func shopSnapshot(_ path: String) throws -> String {
        try runSQLite(path, """
            SELECT * FROM "Product" ORDER BY "_pk";
            SELECT * FROM "Provider" ORDER BY "_pk";
            SELECT count(*) FROM _vellum_changes;
            """).out
    }

    /// A shop store with 2 providers and 4 products; returns the store.
    @discardableResult
    public static func makeShop(at path: String) throws -> PersistentStore {
        let store = try PersistentStore(url: URL(fileURLWithPath: path), model: shopModel())
        let c = try ManagedObjectContext(store: store)
        let acme = try c.insert("Provider", values: ["name": .string("Acme")])
        _ = try c.insert("Provider", values: ["name": .string("Globex")])
        let rows: [(String, Double, Int64, String?, String?)] = [
            ("apple", 1.5, 10, "APL-1", "2024-05-01T10:00:00Z"),
            ("banana", 0.25, 0, "BAN-2", nil),
            ("cherry, \"red\"", 12, 3, nil, "2024-01-02T00:00:00Z"),
            ("date", 7, 5, "DAT-4", nil),
        ]
        for (i, r) in rows.enumerated() {
            var values: [String: Value] = ["name": .string(r.0), "price": .double(r.1), "stock": .integer(r.2)]
            if let sku = r.3 { values["sku"] = .string(sku) }
            if let d = r.4 { values["added"] = .date(Value.parseISO8601(d)!) }
            if i == 0 { values["photo"] = .data(Data([0, 1, 2, 255])) }
            let p = try c.insert("Product", values: values)
            if i < 2 { try p.setToOne("provider", acme) }
        }
        _ = try c.save()
        return store
    }

    /// `Row(owner, key, value)`, unique (owner, key): the multi-process tests' model.
    public static func rowModel() throws -> ManagedObjectModel {
        try ModelBuilder()
            .entity("Row") {
                $0.attribute("owner", .string, optional: false)
                $0.attribute("key", .integer64, optional: false)
                $0.attribute("value", .integer64, optional: false, default: .integer(0))
                $0.unique("owner", "key")
                $0.index("Row_owner_key", "owner", "key")
            }
            .build()
    }

    /// A Row store with the shared counters (owner "shared", keys 0...3, value 0), at a path or a `postgresql://` URL.
    public static func makeRowStore(at path: String) throws {
        let store = try PersistentStore.open(location: path, model: rowModel(), options: StoreOptions())
        let c = try ManagedObjectContext(store: store)
        for k in 0..<4 {
            try c.insert("Row", values: ["owner": .string("shared"), "key": .integer(Int64(k)), "value": .integer(0)])
        }
        _ = try c.save()
    }
}
