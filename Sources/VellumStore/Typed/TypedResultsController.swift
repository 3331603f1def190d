import Foundation

/// A results controller over a typed request: the same change sets and delegate
/// (`controller`), objects read as `Root`s.
public final class TypedResultsController<Root: TypedEntity> {
    public let controller: ResultsController

    public init(_ request: TypedFetchRequest<Root>, context: ManagedObjectContext, sectionKeyPath: PartialKeyPath<Root>? = nil) throws(StoreError) {
        let section = try sectionKeyPath.map { k throws(StoreError) in try TypedPredicate<Root>.names(k).get().joined(separator: ".") }
        controller = ResultsController(fetchRequest: request.request, context: context, sectionKeyPath: section)
    }

    public func performFetch() throws(StoreError) { try controller.performFetch() }

    public var sections: [ResultsSection] { controller.sections }
    public var count: Int { controller.fetchedObjectIDs.count }

    public func object(at indexPath: ResultsIndexPath) throws(StoreError) -> Root {
        Root(object: try StoreError.nesting { try controller.object(at: indexPath) })
    }

    /// Every object in order (loaded in one query per batch).
    public func fetchedObjects() throws(StoreError) -> [Root] {
        var objects: [Root] = []
        for (s, section) in controller.sections.enumerated() {
            for i in section.objectIDs.indices { objects.append(try object(at: ResultsIndexPath(item: i, section: s))) }
        }
        return objects
    }

    /// The controller's change sets (see `ResultsController.changes()`).
    public func changes() -> AsyncStream<ResultsChangeSet> { controller.changes() }
}
