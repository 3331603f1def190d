import Foundation
import VellumStore

/// A small shop store with realistic data, for trying the browser.
public enum DemoStore {
    /// The list `vellum demo` opens: the demo writer changes its prices live.
    public static let firstEntity = "Product"
    /// The end of the demo's welcome line (`Input.welcome`): what changes by itself.
    public static let welcomeLive = "prices change live"

    public static func model() throws -> ManagedObjectModel {
        try ModelBuilder()
            .entity("Provider") {
                $0.attribute("name", .string, optional: false)
                $0.attribute("country", .string)
                $0.unique("name")
                $0.toMany("products", "Product", inverse: "provider", deleteRule: .deny)
            }
            .entity("Product") {
                $0.attribute("name", .string, optional: false, default: .string("New product"))
                $0.attribute("price", .double, default: .double(0), min: 0)
                $0.attribute("stock", .integer32, default: .integer(0), min: 0)
                $0.attribute("sku", .string)
                $0.attribute("updated", .date)
                $0.toOne("provider", "Provider", inverse: "products")
                $0.toMany("images", "Image", inverse: "product", deleteRule: .cascade)
            }
            .entity("Image") {
                $0.attribute("url", .uri)
                $0.toOne("product", "Product", inverse: "images")
            }
            .entity("Task") {
                $0.attribute("title", .string, optional: false, default: .string("New task"))
                $0.attribute("done", .boolean, default: .bool(false))
                $0.attribute("due", .date)
                $0.attribute("priority", .integer16, default: .integer(1), min: 0, max: 5)
            }
            .build()
    }

    static let providers: [(String, String)] = [
        ("Nordlicht Handel", "Germany"), ("Maison Dubois", "France"), ("Kyoto Crafts", "Japan"),
        ("Andes Trading Co.", "Peru"), ("Baltic Amber", "Lithuania"), ("Sahara Textiles", "Morocco"),
        ("Great Lakes Supply", "Canada"), ("Olive & Vine", "Italy"), ("Fjord Outfitters", "Norway"),
        ("Café São Paulo", "Brazil"),
    ]
    static let adjectives = ["Classic", "Organic", "Deluxe", "Compact", "Handmade", "Vintage", "Smart", "Rustic", "Premium", "Eco"]
    static let nouns = ["Tea Kettle", "Coffee Grinder", "Wool Blanket", "Ceramic Mug", "Olive Oil", "Leather Wallet",
                        "Desk Lamp", "Chef's Knife", "Rain Jacket", "Notebook", "Amber Necklace", "Espresso Beans",
                        "Hiking Boots", "Cutting Board", "Linen Shirt", "Honey Jar", "Candle Set", "Backpack", "Teapot", "Scarf"]
    static let tasks = ["Reorder stock", "Call supplier", "Update price list", "Photograph new items", "Check returns",
                        "Plan summer sale", "Reply to reviews", "Audit inventory", "Renew domain", "Pay invoices"]

    /// Creates the store at `url` (which must not exist yet).
    public static func create(at url: URL) throws {
        let container = try PersistentContainer(model: model(), storeURL: url)
        let ctx = try ManagedObjectContext(store: container.store)
        var rng = SeededGenerator(seed: 42)
        var providerObjects: [ManagedObject] = []
        for (name, country) in providers {
            providerObjects.append(try ctx.insert("Provider", values: ["name": .string(name), "country": .string(country)]))
        }
        let start = Date(timeIntervalSince1970: 1_735_689_600) // 2025-01-01
        for i in 0..<200 {
            let name = "\(adjectives[i % adjectives.count]) \(nouns[(i / adjectives.count + i) % nouns.count])"
            let p = try ctx.insert("Product", values: [
                "name": .string(name),
                "price": .double(Double(Int.random(in: 199...19999, using: &rng)) / 100),
                "stock": .integer(Int64.random(in: 0...500, using: &rng)),
                "sku": .string(String(format: "SKU-%05d", 10000 + i * 7)),
                "updated": .date(start.addingTimeInterval(Double(Int.random(in: 0...(300 * 86400), using: &rng)))),
            ])
            try p.setToOne("provider", providerObjects[Int.random(in: 0..<providerObjects.count, using: &rng)])
            if i % 3 == 0 {
                let image = try ctx.insert("Image", values: ["url": .uri(URL(string: "https://img.example.com/products/\(i).jpg")!)])
                try image.setToOne("product", p)
            }
        }
        for i in 0..<30 {
            try ctx.insert("Task", values: [
                "title": .string("\(tasks[i % tasks.count]) #\(i / tasks.count + 1)"),
                "done": .bool(i % 4 == 0),
                "due": .date(start.addingTimeInterval(Double(i) * 86400 * 5)),
                "priority": .integer(Int64(i % 5 + 1)),
            ])
        }
        _ = try ctx.save()
    }
}

/// Deterministic randomness: demo data is the same on every machine.
typealias SeededGenerator = SplitMix64
