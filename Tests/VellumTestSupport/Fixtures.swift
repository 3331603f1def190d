import Foundation
import VellumStore

/// The store tests' model and store.
public enum Fixtures {
    /// A small shop: providers, products, tags (many-to-many), and an inheritance branch.
    public static func shopModel() throws -> ManagedObjectModel {
        try ModelBuilder()
            .entity("Provider") {
                $0.attribute("name", .string, optional: false, min: 1, max: 40)
                $0.attribute("country", .string)
                $0.toMany("products", "Product", inverse: "provider", deleteRule: .deny)
                $0.unique("name")
            }
            .entity("Product") {
                Fixtures.productAttributes(&$0)
                $0.toOne("provider", "Provider", inverse: "products")
                $0.toMany("tags", "Tag", inverse: "products")
                $0.toMany("images", "Image", inverse: "product", ordered: true, deleteRule: .cascade)
            }
            .entity("Tag") {
                $0.attribute("name", .string, optional: false)
                $0.toMany("products", "Product", inverse: "tags")
            }
            .entity("Image") {
                $0.attribute("url", .uri)
                $0.attribute("bytes", .binary)
                $0.toOne("product", "Product", inverse: "images")
            }
            .entity("Item", abstract: true) { $0.attribute("title", .string) }
            .entity("Task", parent: "Item") { $0.attribute("done", .boolean, default: .bool(false)) }
            .entity("Note", parent: "Item") { $0.attribute("body", .string) }
            .build()
    }

    /// The product attributes of both shop models (this one and `CLIFixtures`'), in column order.
    public static func productAttributes(_ product: inout EntityBuilder) {
        product.attribute("name", .string, optional: false)
        product.attribute("price", .double, default: .double(0), min: 0)
        product.attribute("stock", .integer16, default: .integer(0))
        product.attribute("sku", .string, regex: "[A-Z]{3}-[0-9]+")
        product.attribute("added", .date)
        product.attribute("active", .boolean, default: .bool(true))
    }

    public static func openShop(_ dir: TempDir, name: String = "shop.sqlite") throws -> PersistentStore {
        try PersistentStore(url: dir.file(name), model: shopModel())
    }
}
