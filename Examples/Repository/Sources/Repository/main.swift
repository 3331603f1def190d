import Foundation
import VellumStore

// Pattern 4 of docs/guide.md section 9: Repository<Entity>, create / read / update / delete over
// the typed entities the build plugin generates from Shop.vellum.json (Provider, Product).
// Writes run on the write queue, the read-back on the main-actor view context. It opens (or
// creates) shop.sqlite in the current directory; run it twice: the second run creates nothing,
// finds the first run's products and raises their prices again.
let modelURL = Bundle.module.url(forResource: "Shop.vellum", withExtension: "json")!
let container = try PersistentContainer(model: try ModelLoader.load(from: modelURL),
                                        storeURL: URL(fileURLWithPath: "shop.sqlite"))
print("Opened shop.sqlite")

// Create, only what is missing: a second run finds it all and creates nothing.
let created = try await container.enqueue { ctx in
    let providers = Repository<Provider>(context: ctx)
    let products = Repository<Product>(context: ctx)
    var created = 0
    let leaf = try providers.all(where: \.name == "Leaf & Co").first ?? providers.create { created += 1; $0.name = "Leaf & Co" }
    for (name, price) in [("Green tea", 4.0), ("Black tea", 3.5)] {
        guard try products.all(where: \.name == name).isEmpty else { continue }
        _ = try products.create { $0.name = name; $0.price = price; $0.provider = leaf }
        created += 1
    }
    return created
}
print("Created \(created) object(s)")

// Update: a price rise of 0.50 for the provider's products, once per run.
let raised = try await container.enqueue { ctx in
    let products = Repository<Product>(context: ctx)
    let theirs = try products.all(where: \.provider?.name == "Leaf & Co")
    for product in theirs { try products.update(product) { $0.price = ($0.price ?? 0) + 0.5 } }
    return theirs.count
}
print("Raised the price of \(raised) product(s) by 0.50")

// Delete: a sample that lives for one run, so the store keeps the same products.
let (countWithSample, countAfterDelete) = try await container.enqueue { ctx in
    let products = Repository<Product>(context: ctx)
    let sample = try products.create { $0.name = "Sample sachet"; $0.price = 0 }
    let withSample = try products.all().count
    try products.delete(sample)
    return (withSample, try products.all().count)
}
print("Deleted a sample: \(countWithSample) product(s) with it, \(countAfterDelete) after")

// Read back on the view context: what the write queue saved.
let products = try Repository<Product>(context: container.viewContext).all().sorted { $0.name < $1.name }
print("View context: \(products.count) product(s)")
for product in products {
    print("  \(product.name), \(String(format: "%.2f", product.price ?? 0)), from \(product.provider?.name ?? "nobody")")
}
