import VellumStore

extension EffectRunner {
    /// Counts, in the view context, what the open "delete?" question would delete or be
    /// refused by. Many marked records can take a while: Esc or Ctrl-C stops the count and
    /// withdraws the question (nothing is deleted).
    func previewDeletion() {
        let marked = !state.marked.isEmpty
        let ids = marked ? Array(state.marked) : currentObject().map { [$0.objectID] } ?? []
        guard !ids.isEmpty, let entity = state.currentEntityName else { return }
        switch cancellable("counting what the delete takes along", { try context.deletionPreview(of: ids) }) {
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
