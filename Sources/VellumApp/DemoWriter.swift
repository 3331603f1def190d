import Foundation
import VellumStore

/// Simulates another process editing the store: every ~700 ms it changes a
/// random product's price or adds a task, through its own container.
public enum DemoWriter {
    public static func run(storePath: String, iterations: Int? = nil, interval: TimeInterval = 0.7) throws {
        let container = try PersistentContainer(model: nil, storeURL: URL(fileURLWithPath: storePath),
                                                options: StoreOptions(createIfMissing: false))
        container.writeQueueAuthor = "demo-writer"
        let ctx = try ManagedObjectContext(store: container.store)
        ctx.transactionAuthor = "demo-writer"
        var n = 0
        while iterations.map({ n < $0 }) ?? true {
            n += 1
            Thread.sleep(forTimeInterval: interval)
            do {
                if Int.random(in: 0..<4) == 0 {
                    try ctx.insert("Task", values: [
                        "title": .string("Follow up order #\(Int.random(in: 1000...9999))"),
                        "due": .date(Date().addingTimeInterval(Double.random(in: 0...(14 * 86400)))),
                        "priority": .integer(Int64.random(in: 1...5)),
                    ])
                } else {
                    let ids = try ctx.fetchObjectIDs(FetchRequest(entityName: "Product"))
                    guard let id = ids.randomElement() else { continue }
                    let product = try ctx.object(with: id)
                    let price = (try product.value(forKey: "price").doubleValue) ?? 10
                    let newPrice = max(0.5, (price * Double.random(in: 0.9...1.1) * 100).rounded() / 100)
                    try product.setValue(.double(newPrice), forKey: "price")
                    try product.setValue(.date(Date()), forKey: "updated")
                }
                _ = try ctx.save()
            } catch {
                ctx.rollback()
                FileHandle.standardError.write(Data("demo-writer: \(ErrorText.describe(error))\n".utf8))
            }
        }
    }
}
