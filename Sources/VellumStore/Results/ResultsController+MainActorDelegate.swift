import Foundation

extension ResultsController {
    /// A main-actor delegate (held weakly, like `delegate`). Setting it replaces `delegate`.
    public var mainActorDelegate: (any MainActorResultsControllerDelegate)? {
        get { (mainActorAdapter as? MainActorDelegateAdapter)?.target }
        set {
            let adapter = newValue.map(MainActorDelegateAdapter.init)
            mainActorAdapter = adapter
            delegate = adapter
        }
    }
}

/// Forwards a controller's delegate calls to a main-actor delegate; the controller
/// keeps it (`mainActorAdapter`), it keeps the delegate weakly.
final class MainActorDelegateAdapter: ResultsControllerDelegate {
    weak var target: (any MainActorResultsControllerDelegate)?

    init(_ target: any MainActorResultsControllerDelegate) { self.target = target }

    /// Calls `body` on the main actor, which the controller's queue is (checked).
    private func forward(_ controller: ResultsController,
                         _ body: @MainActor (any MainActorResultsControllerDelegate, ResultsController) -> Void) {
        guard let target else { return }
        // The controller is confined to the main queue, where this runs; the check says so.
        nonisolated(unsafe) let controller = controller
        MainActor.assumeIsolated { body(target, controller) }
    }

    func controllerWillChangeContent(_ controller: ResultsController) {
        forward(controller) { $0.controllerWillChangeContent($1) }
    }
    func controller(_ controller: ResultsController, didChange section: ResultsChangeSet.SectionChange, for type: ResultsSectionChangeType) {
        forward(controller) { $0.controller($1, didChange: section, for: type) }
    }
    func controller(_ controller: ResultsController, didChange objectID: ObjectID, at indexPath: ResultsIndexPath?,
                    for type: ResultsObjectChangeType, newIndexPath: ResultsIndexPath?) {
        forward(controller) { $0.controller($1, didChange: objectID, at: indexPath, for: type, newIndexPath: newIndexPath) }
    }
    func controllerDidChangeContent(_ controller: ResultsController) {
        forward(controller) { $0.controllerDidChangeContent($1) }
    }
    func controllerDidReloadContent(_ controller: ResultsController) {
        forward(controller) { $0.controllerDidReloadContent($1) }
    }
    func controller(_ controller: ResultsController, didFailToUpdate error: StoreError) {
        forward(controller) { $0.controller($1, didFailToUpdate: error) }
    }
}
