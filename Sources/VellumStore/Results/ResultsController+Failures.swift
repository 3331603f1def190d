import Foundation

extension ResultsController {
    /// What re-evaluating one changed object found.
    enum Evaluation {
        /// It belongs to the results, with these sort keys.
        case included(SortKeys)
        /// It does not belong (deleted, gone from the store, another entity, or the predicate is false).
        case excluded
        /// It could not be read or evaluated; whether it belongs is unknown.
        case failed(StoreError)
    }

    /// True for errors that mean the object is not there (deleted, gone from the
    /// store, an unsaved insert that was rolled back): it leaves the list. Any other
    /// error says nothing about whether it belongs.
    static func meansAbsent(_ error: any Error) -> Bool {
        switch error as? StoreError {
        case .objectNotFound?, .wrongContext?: return true
        default: return false
        }
    }

    /// Objects whose evaluation found the server unreachable (a restart), to evaluate again.
    struct Unreachable {
        var ids: Set<ObjectID> = []
        var scheduled = false
        var attempts = 0
        /// When the objects now waiting first failed.
        var since: Date?
    }

    /// How long objects are tried again after the server went away: a restart on a busy
    /// machine can take more than a minute.
    static let unreachableRetryLimit: TimeInterval = 300

    /// An object that could not be read because the server was away is evaluated again
    /// on the main queue (where view contexts' controllers run) — after 100 ms, backing off
    /// to a second — for up to five minutes, so an insert or move that arrived during a
    /// restart is not lost.
    func evaluateAgainLater(_ id: ObjectID) {
        guard Self.isOnMainQueue else { return }
        let now = Date()
        let since = unreachable.since ?? now
        guard now.timeIntervalSince(since) < Self.unreachableRetryLimit else { return }
        unreachable.since = since
        unreachable.ids.insert(id)
        guard !unreachable.scheduled else { return }
        unreachable.scheduled = true
        unreachable.attempts += 1
        let delay = min(1.0, 0.1 * Double(1 << min(unreachable.attempts - 1, 4)))
        let me = Handoff(value: Weak(self))
        DispatchQueue.main.asyncAfter(deadline: .now() + delay) { me.value.object?.evaluateUnreachableAgain() }
    }

    private func evaluateUnreachableAgain() {
        let ids = unreachable.ids
        unreachable.ids = []
        unreachable.scheduled = false
        guard fetched, !ids.isEmpty else { return }
        pending.add(ObjectsDidChange(refreshed: ids))
        applyPendingChanges()
        if unreachable.ids.isEmpty { unreachable.attempts = 0; unreachable.since = nil }
    }

    /// Records an error met while keeping the list current and tells the delegate.
    /// The rows involved stay as they were; nothing is dropped silently.
    func report(_ error: any Error) {
        let e = StoreError(nesting: error)
        lastError = e
        delegate?.controller(self, didFailToUpdate: e)
    }
}
