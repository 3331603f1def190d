import Foundation

/// `ResultsControllerDelegate` for a `@MainActor` class (a view model, a screen):
/// the same calls, isolated to the main actor, adoptable without Swift 6.2's
/// isolated conformances. Set it with `controller.mainActorDelegate = self`.
/// Only for controllers used on the main actor (those of the view context): a
/// change delivered on another thread stops the program.
@MainActor
public protocol MainActorResultsControllerDelegate: AnyObject, Sendable {
    func controllerWillChangeContent(_ controller: ResultsController)
    func controller(_ controller: ResultsController, didChange section: ResultsChangeSet.SectionChange, for type: ResultsSectionChangeType)
    func controller(_ controller: ResultsController, didChange objectID: ObjectID, at indexPath: ResultsIndexPath?,
                    for type: ResultsObjectChangeType, newIndexPath: ResultsIndexPath?)
    func controllerDidChangeContent(_ controller: ResultsController)
    func controllerDidReloadContent(_ controller: ResultsController)
    func controller(_ controller: ResultsController, didFailToUpdate error: StoreError)
}

extension MainActorResultsControllerDelegate {
    public func controllerWillChangeContent(_ controller: ResultsController) {}
    public func controller(_ controller: ResultsController, didChange section: ResultsChangeSet.SectionChange, for type: ResultsSectionChangeType) {}
    public func controller(_ controller: ResultsController, didChange objectID: ObjectID, at indexPath: ResultsIndexPath?,
                           for type: ResultsObjectChangeType, newIndexPath: ResultsIndexPath?) {}
    public func controllerDidChangeContent(_ controller: ResultsController) {}
    public func controllerDidReloadContent(_ controller: ResultsController) {}
    public func controller(_ controller: ResultsController, didFailToUpdate error: StoreError) {}
}
