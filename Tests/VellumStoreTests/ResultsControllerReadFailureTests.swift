import Foundation
import Testing
@testable import VellumStore

/// A changed object that cannot be read or evaluated is not "deleted": its row
/// stays where it was and the controller says why (`lastError`, the delegate).
/// Before, any error while re-evaluating dropped the row from the list silently.
@MainActor
@Suite struct ResultsControllerReadFailureTests {
    final class FailureRecorder: ResultsControllerDelegate {
        var errors: [StoreError] = []
        func controller(_ controller: ResultsController, didFailToUpdate error: StoreError) { errors.append(error) }
    }

    func names(_ c: ResultsController, _ ctx: ManagedObjectContext) throws -> [String] {
        try c.fetchedObjectIDs.map { try ctx.existingObject(with: $0)["name"].stringValue ?? "?" }
    }

    /// A transient read failure (the table is briefly unreadable) while re-reading a
    /// changed row must not remove the row; once the table is back, it reads again.
    @Test func aFailedReadOfAChangedRowKeepsTheRowAndReportsWhy() throws {
        let dir = TempDir()
        let path = dir.file("rc.sqlite").path
        let store = try PersistentStore(url: dir.file("rc.sqlite"), model: Fixtures.shopModel())
        let writer = try ManagedObjectContext(store: store)
        for (name, price) in [("Apple", 1.0), ("Bread", 2.0), ("Cheese", 3.0)] {
            try writer.insert("Product", values: ["name": .string(name), "price": .double(price)])
        }
        try writer.save()
        // A context that has loaded nothing: the controller indexes IDs only.
        let ctx = try ManagedObjectContext(store: store)
        let recorder = FailureRecorder()
        let controller = ResultsController(fetchRequest: FetchRequest(entityName: "Product", sortDescriptors: [QuerySortDescriptor("price")]), context: ctx)
        controller.delegate = recorder
        try controller.performFetch()
        let ids = controller.fetchedObjectIDs
        #expect(ids.count == 3)

        #expect(try runSQLite(path, "ALTER TABLE Product RENAME TO Product_away;").status == 0)
        ctx.notify(ObjectsDidChange(updated: [ids[1]]))   // what a merge of another writer's save delivers
        #expect(controller.fetchedObjectIDs == ids, "the row that could not be read must stay in place")
        let error = try #require(controller.lastError)
        #expect(error.description.contains("Product"), "\(error)")
        #expect(recorder.errors.count == 1)

        #expect(try runSQLite(path, "ALTER TABLE Product_away RENAME TO Product;").status == 0)
        ctx.notify(ObjectsDidChange(updated: [ids[1]]))
        #expect(controller.lastError == nil)
        #expect(try names(controller, ctx) == ["Apple", "Bread", "Cheese"])
    }

    /// A predicate that cannot be evaluated for one object (its own pattern is not a
    /// regular expression) keeps that object's row and names the reason.
    @Test func aPredicateThatFailsOnOneObjectKeepsItsRowAndReportsWhy() throws {
        let dir = TempDir()
        let ctx = try ManagedObjectContext(store: try Fixtures.openShop(dir))
        for (name, sku) in [("ABC-1", "ABC-1"), ("XYZ-2", "XYZ-2")] {
            try ctx.insert("Product", values: ["name": .string(name), "sku": .string(sku)])
        }
        try ctx.save()
        let request = FetchRequest(entityName: "Product", predicate: try QueryPredicate(format: "name MATCHES sku"),
                                   sortDescriptors: [QuerySortDescriptor("name")])
        let controller = ResultsController(fetchRequest: request, context: ctx)
        try controller.performFetch()
        #expect(try names(controller, ctx) == ["ABC-1", "XYZ-2"])

        let first = try ctx.existingObject(with: controller.fetchedObjectIDs[0])
        try first.setValue(.string("([A-Z"), forKey: "sku")   // unsaved: only the in-memory evaluation sees it
        #expect(try names(controller, ctx) == ["ABC-1", "XYZ-2"])
        let error = try #require(controller.lastError)
        #expect(error.queryError != nil, "\(error)")
    }
}
