import Foundation

/// Change sets coalesced per main-queue turn, as Core Data's results controller
/// coalesces per run-loop turn: on the main queue, the objects each
/// `objectsDidChange` names are collected, and applied together — one change set,
/// one will/did cycle — when the turn ends (a block queued on the main queue), so an
/// edit of two keys and a relationship is one change. Reading the controller first
/// applies what is pending, so a reader never sees a stale list; the change set is
/// still computed from the last delivered snapshot, so it turns that snapshot into
/// the new one exactly. Elsewhere (a background context's queue has no turns)
/// each change applies at once.
extension ResultsController {
    /// What the changes heard since the last delivered change set touched.
    struct PendingChanges {
        /// Every object to re-evaluate (`gone` included).
        var changed: Set<ObjectID> = []
        /// Objects known to be gone as of the latest event naming them.
        var gone: Set<ObjectID> = []
        /// A block applying them is queued on the main queue.
        var scheduled = false
        /// They are being applied (and delivered) now.
        var applying = false

        var isEmpty: Bool { changed.isEmpty }

        /// Within one event "gone" wins (an insert deleted again); across events the
        /// later event wins (a deleted object restored later in the turn is present).
        mutating func add(_ event: ObjectsDidChange) {
            let eventGone = event.deleted.union(event.invalidated)
            let present = event.inserted.union(event.updated).union(event.refreshed).subtracting(eventGone)
            gone.subtract(present)
            gone.formUnion(eventGone)
            changed.formUnion(present)
            changed.formUnion(eventGone)
        }

        /// After a save: temporary IDs become the permanent IDs the store gave them.
        mutating func resolveTemporaryIDs(_ permanentID: (ObjectID) -> ObjectID?) {
            func resolved(_ ids: Set<ObjectID>) -> Set<ObjectID> {
                Set(ids.map { $0.isTemporary ? permanentID($0) ?? $0 : $0 })
            }
            changed = resolved(changed)
            gone = resolved(gone)
        }
    }

    /// Collects an incremental change; applies it now or at the end of the main-queue turn.
    func collect(_ event: ObjectsDidChange) {
        pending.add(event)
        guard Self.isOnMainQueue else {
            applyPendingChanges()
            return
        }
        guard !pending.scheduled else { return }
        pending.scheduled = true
        let me = Handoff(value: Weak(self))
        DispatchQueue.main.async { me.value.object?.applyPendingChanges(endOfTurn: true) }
    }

    /// Applies the collected changes as one change set (readers call it first).
    /// Changes made by the receivers of a change set are applied after it, as the
    /// next one, so deliveries never nest.
    func applyPendingChanges(endOfTurn: Bool = false) {
        if endOfTurn { pending.scheduled = false }
        guard !pending.applying else { return }
        pending.applying = true
        defer { pending.applying = false }
        while !pending.isEmpty {
            let (changed, gone) = (pending.changed, pending.gone)
            discardPendingChanges()
            lastError = nil
            deliver(process(changed: changed, gone: gone, renames: [:], computeChanges: true))
        }
    }

    /// Drops the collected changes (a refetch re-evaluates everything anyway).
    func discardPendingChanges() {
        pending.changed = []
        pending.gone = []
    }
}
