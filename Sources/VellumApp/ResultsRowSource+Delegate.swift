import VellumStore

/// The row source hears its controller's change sets, so a list refetched after
/// another writer's commit (off the main thread, applied later on it) shows its
/// changed rows — and only those — flashing, without reloading the whole list.
extension ResultsRowSource: @MainActor ResultsControllerDelegate {
    public func controllerWillChangeContent(_ controller: ResultsController) { delivering = [] }

    public func controller(_ controller: ResultsController, didChange objectID: ObjectID, at indexPath: ResultsIndexPath?,
                           for type: ResultsObjectChangeType, newIndexPath: ResultsIndexPath?) {
        if type != .delete { delivering.insert(objectID) }
    }

    public func controllerDidChangeContent(_ controller: ResultsController) {
        guard controller === self.controller else { return }
        cachedStarts = nil
        let changed = delivering
        delivering = []
        onListChanged?(changed)
    }

    public func controllerDidReloadContent(_ controller: ResultsController) {
        guard controller === self.controller else { return }
        cachedStarts = nil
        onListChanged?([])
    }
}
