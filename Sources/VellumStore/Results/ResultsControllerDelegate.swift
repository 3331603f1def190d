import Foundation

public enum ResultsSectionChangeType: Int, Sendable { case insert = 1, delete = 2 }
public enum ResultsObjectChangeType: Int, Sendable { case insert = 1, delete = 2, move = 3, update = 4 }

/// Receives a results controller's changes: will-change, section changes, object
/// changes (deletes, inserts, moves, updates), did-change. Index paths follow
/// `ResultsChangeSet`'s rules: deletes and move sources old, the rest new.
/// After a context reset only `controllerDidReloadContent` is called.
public protocol ResultsControllerDelegate: AnyObject {
    func controllerWillChangeContent(_ controller: ResultsController)
    func controller(_ controller: ResultsController, didChange section: ResultsChangeSet.SectionChange, for type: ResultsSectionChangeType)
    func controller(_ controller: ResultsController, didChange objectID: ObjectID, at indexPath: ResultsIndexPath?,
                    for type: ResultsObjectChangeType, newIndexPath: ResultsIndexPath?)
    func controllerDidChangeContent(_ controller: ResultsController)
    func controllerDidReloadContent(_ controller: ResultsController)
    /// A changed object could not be read or evaluated (or a reload failed): its
    /// row stays where it was, and `error` says why. Also in `lastError`.
    func controller(_ controller: ResultsController, didFailToUpdate error: StoreError)
}

extension ResultsControllerDelegate {
    public func controllerWillChangeContent(_ controller: ResultsController) {}
    public func controller(_ controller: ResultsController, didChange section: ResultsChangeSet.SectionChange, for type: ResultsSectionChangeType) {}
    public func controller(_ controller: ResultsController, didChange objectID: ObjectID, at indexPath: ResultsIndexPath?,
                           for type: ResultsObjectChangeType, newIndexPath: ResultsIndexPath?) {}
    public func controllerDidChangeContent(_ controller: ResultsController) {}
    public func controllerDidReloadContent(_ controller: ResultsController) {}
    public func controller(_ controller: ResultsController, didFailToUpdate error: StoreError) {}
}
