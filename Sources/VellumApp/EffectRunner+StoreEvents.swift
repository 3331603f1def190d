import Foundation
import VellumStore

/// Changes merged into the view context (saves here, the write queue, other
/// processes) become inputs: rows, flashes, the last writer and entity counts.
extension EffectRunner {
    func didChange(_ change: ObjectsDidChange) {
        let now = Date()
        if !writingLocally { send(.store(.changedElsewhere(change.inserted.union(change.updated), at: now))) }
        if let target = editTarget, state.mode == .edit,
           change.updated.contains(target.id) || change.refreshed.contains(target.id)
            || change.deleted.contains(target.id) || change.invalidated.contains(target.id) || change.storeChangedExternally {
            if let o = context.registeredObject(for: target.id), !o.isDeleted, let seen = try? context.snapshot(of: o) { editSnapshot = seen }
            if !writingLocally { checkConflict(mine: state.editor.text) }
        }
        // The results controller observes the same context; apply after every observer ran.
        if var pending = pendingChange {
            pending.inserted.formUnion(change.inserted)
            pending.updated.formUnion(change.updated)
            pending.deleted.formUnion(change.deleted)
            pending.refreshed.formUnion(change.refreshed)
            pending.invalidated.formUnion(change.invalidated)
            pending.storeChangedExternally = pending.storeChangedExternally || change.storeChangedExternally
            pending.invalidatedAll = pending.invalidatedAll || change.invalidatedAll
            pendingChange = pending
        } else {
            pendingChange = change
        }
        redraw()
        guard !changeScheduled else { return }
        changeScheduled = true
        Task { @MainActor [weak self] in self?.applyPendingChange() }
    }

    /// Applies coalesced changes: row list, selection by identity, counts, last writer.
    public func applyPendingChange() {
        changeScheduled = false
        guard let change = pendingChange else { return }
        pendingChange = nil
        if let rows, (try? rows.refresh(after: change)) != nil {
            if let source = rows as? ResultsRowSource, !source.lastInserted.isEmpty, !writingLocally {
                send(.store(.changedElsewhere(source.lastInserted, at: Date())))
            }
        }
        if let remote = container.lastRemoteChange { send(.store(.remoteWriter(author: remote.author, at: remote.date))) }
        recountEntities(resizedBy: change)
        followSelection()
        redraw()
    }

    func refreshCounts() {
        let counts = state.entityNames.map { (try? context.count(FetchRequest(entityName: $0))) ?? 0 }
        send(.store(.counted(Dictionary(uniqueKeysWithValues: counts.enumerated().map { ($0, $1) }))))
    }

    /// Recounts only the entities a change can have grown or shrunk (an insert or
    /// delete of one of their kind): an edit runs no `COUNT(*)`, an add one.
    func recountEntities(resizedBy change: ObjectsDidChange) {
        if change.storeChangedExternally || change.invalidatedAll || state.entityCounts.count != state.entityNames.count {
            refreshCounts()
            return
        }
        let resized = Set(change.inserted.union(change.deleted).union(change.invalidated).map(\.entityName))
        guard !resized.isEmpty else { return }
        let model = container.model
        var counts: [Int: Int] = [:]
        for (i, name) in state.entityNames.enumerated()
        where resized.contains(where: { model.entity(named: $0)?.isKind(of: name) == true }) {
            counts[i] = (try? context.count(FetchRequest(entityName: name))) ?? 0
        }
        send(.store(.counted(counts)))
    }
}
