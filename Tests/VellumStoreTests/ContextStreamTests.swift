import Foundation
import Testing
import VellumStore

/// Issue 11, "`vellum query` streams": the library side, `forEachBatch`.
@Suite struct ContextStreamTests {
    @Test func forEachBatchYieldsWhatFetchReturnsInBatches() throws {
        let dir = TempDir()
        let store = try Fixtures.openShop(dir)
        let writer = try ManagedObjectContext(store: store)
        for i in 0..<2_500 { _ = try writer.insert("Provider", values: ["name": .string("p\(i)")]) }
        _ = try writer.save()
        let context = try ManagedObjectContext(store: store)
        let request = FetchRequest(entityName: "Provider", predicate: try QueryPredicate(format: "name BEGINSWITH 'p1'"),
                                   sortDescriptors: [QuerySortDescriptor("name", ascending: false)])
        let expected = try context.fetch(request).map { try $0.value(forKey: "name") }
        context.reset()
        var sizes: [Int] = [], names: [Value] = []
        try context.forEachBatch(request, batchSize: 400) { batch in
            sizes.append(batch.count)
            names += try batch.map { try $0.value(forKey: "name") }
        }
        #expect(names == expected)
        #expect(sizes == [400, 400, 311])
        // A context with unsaved changes is refused rather than streamed without them.
        _ = try context.insert("Provider", values: ["name": .string("p1-new")])
        #expect(throws: StoreError.self) { try context.forEachBatch(request) { _ in } }
    }
}
