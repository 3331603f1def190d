import VellumStore

extension EffectRunner {
    /// Counts, on a reader off the main thread, what the open "delete?" question would
    /// delete or be refused by. Many marked records can take a while: the question stays
    /// open meanwhile; Esc or Ctrl-C stops the count and withdraws it (nothing is deleted).
    func previewDeletion() {
        let marked = !state.marked.isEmpty
        let ids = marked ? Array(state.marked) : currentObject().map { [$0.objectID] } ?? []
        guard !ids.isEmpty, let entity = state.currentEntityName else { return }
        runInBackground("counting what the delete takes along", { ctx in try ctx.deletionPreview(of: ids) }) { [weak self] outcome in
            guard let self else { return }
            switch outcome {
            case .done(let preview):
                send(.result(.deletionPreviewed(DeletionQuestion(preview, entity: entity, marked: marked))))
            case .cancelled:
                send(.result(.backToBrowse))
                send(.status("delete cancelled; nothing deleted"))
            case .failed(let error):
                send(.result(.backToBrowse))
                send(.status("delete: \(describe(error)); nothing deleted", error: true))
            }
        }
    }
}
