import Foundation
import VellumStore

// Pattern 1 of docs/guide.md section 9: one shared ShopStack, background writes on its serial
// queue, reads on its main context. It opens (or creates) shop.sqlite in the current directory;
// run it twice: the second run adds nothing and finds what the first saved.
let stack = try ShopStack(url: URL(fileURLWithPath: "shop.sqlite"))
let earlier = try stack.mainContext.count(FetchRequest(entityName: "Product"))
print("Opened shop.sqlite: \(earlier) product(s) from earlier runs")

// The queue runs blocks one at a time, in order: the second block finds the provider the first saved.
try await stack.perform { ctx in
    // Provider names are unique: check before inserting, so a second run adds nothing.
    guard try ctx.isUnique(entity: "Provider", attribute: "name", value: "Leaf & Co") else { return }
    try ctx.insert("Provider", values: ["name": "Leaf & Co"])
}
try await stack.perform { ctx in
    guard let provider = try ctx.fetch("Provider", where: QueryPredicate(format: "name == %@", "Leaf & Co")).first else {
        throw StoreError.invalidOperation("the first block's provider is not there")
    }
    for (name, price) in [("Green tea", 4.0), ("Black tea", 3.5)] {
        guard try ctx.fetch("Product", where: QueryPredicate(format: "name == %@", .string(name))).isEmpty else { continue }
        let product = try ctx.insert("Product", values: ["name": .string(name), "price": .double(price)])
        try product.setToOne("provider", provider)
    }
}

// The main context reads what the queue saved (top-level code runs on the main actor).
let providers = try stack.mainContext.count(FetchRequest(entityName: "Provider"))
let products = try stack.mainContext.fetch("Product", sortedBy: [QuerySortDescriptor("name")])
print("Main context: \(providers) provider(s), \(products.count) product(s), \(products.count - earlier) added by this run")
for product in products {
    let name = try product["name"].stringValue ?? "?"
    let price = try product["price"].doubleValue ?? 0
    let provider = try product.toOne("provider")?["name"].stringValue ?? "nobody"
    print("  \(name), \(String(format: "%.2f", price)), from \(provider)")
}
