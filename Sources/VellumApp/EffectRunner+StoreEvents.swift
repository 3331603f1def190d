import Foundation
import VellumStore

/// Changes merged into the view context (saves here, the write queue, other
/// processes) become inputs: rows, flashes, the last writer and entity counts.
extension EffectRunner {
    func didChange(_ change: ObjectsDidChange) {
        backgroundWork?.heard.append(change)   // a list being read meanwhile applies it on top
        relatedCounts.invalidate(after: change, model: container.model)
        let now = Date()
        if !isWritingHere { send(.store(.changedElsewhere(change.inserted.union(change.updated), at: now))) }
        if let target = editTarget, state.mode == .edit,
           change.updated.contains(target.id) || change.refreshed.contains(target.id)
            || change.deleted.contains(target.id) || change.invalidated.contains(target.id) || change.storeChangedExternally {
            if let o = context.registeredObject(for: target.id), !o.isDeleted, let seen = try? context.snapshot(of: o) { editSnapshot = seen }
            if !isWritingHere { noteChangeUnderneath() }
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
            if let source = rows as? ResultsRowSource, !source.lastInserted.isEmpty, !isWritingHere {
                send(.store(.changedElsewhere(source.lastInserted, at: Date())))
            }
        }
        if let remote = container.lastRemoteChange { send(.store(.remoteWriter(author: remote.author, at: remote.date))) }
        recountEntities(resizedBy: change)
        if state.sectionAggregate != nil { scheduleSectionFigures() }
        followSelection()
        redraw()
    }

    /// The open list's controller delivered a change set of its own (a refetch after
    /// another writer's commit, finished off the main thread): its changed rows flash.
    /// One delivered while a context change is pending is followed by that change.
    func listChangedByItself(_ changed: Set<ObjectID>) {
        if !changed.isEmpty, !isWritingHere { send(.store(.changedElsewhere(changed, at: Date()))) }
        guard !changeScheduled else { return }
        followSelection()
        redraw()
    }

    /// The rows past the first page are in (indexed off the main thread): the cursor
    /// follows the selected record, the status bar shows the whole list.
    func listIndexed(_ error: StoreError?) {
        if let error { send(.status("listing the rows: \(describe(error))", error: true)) }
        followSelection()
        redraw()
    }

    /// Counts every entity; one that cannot be counted (another program dropped its
    /// table, a busy or damaged file) is reported with the reason, never as 0.
    func refreshCounts() {
        var counts: [Int: Int] = [:], failures: [Int: String] = [:]
        for (i, name) in state.entityNames.enumerated() {
            do { counts[i] = try context.count(FetchRequest(entityName: name)) } catch { failures[i] = describe(error) }
        }
        send(.store(.counted(counts)))
        if !failures.isEmpty { send(.store(.countFailed(failures))) }
    }

    /// Entity counts follow change events: a merged save (the browser's own writes
    /// come back this way too) adds its inserts and takes off its deletes, with no
    /// query (undo and redo too: they are queued writes). Only "refetch everything"
    /// (a writer without history, a reset) counts all again.
    func recountEntities(resizedBy change: ObjectsDidChange) {
        if change.storeChangedExternally || change.invalidatedAll || state.entityCounts.count != state.entityNames.count {
            refreshCounts()
            return
        }
        let model = container.model
        func entities(_ ids: Set<ObjectID>) -> [Int] {
            ids.flatMap { id in
                state.entityNames.indices.filter { model.entity(named: id.entityName)?.isKind(of: state.entityNames[$0]) == true }
            }
        }
        let removed = change.deleted.union(change.invalidated)
        var deltas: [Int: Int] = [:]
        for i in entities(change.inserted) { deltas[i, default: 0] += 1 }
        for i in entities(removed) { deltas[i, default: 0] -= 1 }
        if deltas.contains(where: { $0.value != 0 }) { send(.store(.countsChanged(deltas))) }
    }
}
