import Foundation
import Testing
@testable import VellumStore

/// Issue 16: a `@MainActor` class could not adopt `ResultsControllerDelegate` under
/// tools version 6.0 (it needs Swift 6.2's isolated conformances).
/// `MainActorResultsControllerDelegate` is that delegate, isolated to the main actor.
@MainActor
@Suite struct MainActorDelegateTests {
    @MainActor final class ListModel: MainActorResultsControllerDelegate {
        var calls: [String] = []
        var inserted: [ResultsIndexPath] = []
        func controllerWillChangeContent(_ controller: ResultsController) { calls.append("will") }
        func controller(_ controller: ResultsController, didChange objectID: ObjectID, at indexPath: ResultsIndexPath?,
                        for type: ResultsObjectChangeType, newIndexPath: ResultsIndexPath?) {
            if type == .insert, let newIndexPath { inserted.append(newIndexPath) }
        }
        func controllerDidChangeContent(_ controller: ResultsController) { calls.append("did") }
    }

    @Test func aMainActorClassHearsTheViewContextsChanges() async throws {
        let dir = TempDir()
        let container = try PersistentContainer(model: Fixtures.shopModel(), storeURL: dir.file("d.sqlite"))
        let controller = ResultsController(fetchRequest: FetchRequest(entityName: "Tag", sortDescriptors: [QuerySortDescriptor("name")]),
                                           context: container.viewContext)
        let model = ListModel()
        controller.mainActorDelegate = model
        #expect(controller.mainActorDelegate === model)
        try controller.performFetch()
        try await container.enqueue { ctx in try ctx.insert("Tag", values: ["name": "green"]) }
        #expect(await waitUntil(timeout: 30) { controller.fetchedObjectIDs.count == 1 })
        #expect(model.calls == ["will", "did"])
        #expect(model.inserted == [ResultsIndexPath(item: 0, section: 0)])
    }

    @Test func theControllerHoldsTheDelegateWeakly() throws {
        let dir = TempDir()
        let container = try PersistentContainer(model: Fixtures.shopModel(), storeURL: dir.file("w.sqlite"))
        let controller = ResultsController(fetchRequest: FetchRequest(entityName: "Tag", sortDescriptors: [QuerySortDescriptor("name")]),
                                           context: container.viewContext)
        do {
            let model = ListModel()
            controller.mainActorDelegate = model
        }
        #expect(controller.mainActorDelegate == nil)
    }
}
