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

    /// What could not be read because the server was away (a restart), to read again.
    struct Unreachable {
        var ids: Set<ObjectID> = []
        /// A reload (refetch) failed that way: the list is fetched again.
        var reload = false
        var scheduled = false
        var attempts = 0
        /// An outage is being waited out: any failure meanwhile is tried again too (a
        /// reconnecting server may first answer with other errors).
        var ongoing = false

        var isEmpty: Bool { ids.isEmpty && !reload }
    }

    /// Whether a failed read is tried again: always while the server is away; any other
    /// failure only during an outage's first tries (a reconnecting server may first answer
    /// with other errors), so a lasting error is reported, not polled for ever.
    static func triesAgain(_ error: StoreError, _ unreachable: Unreachable) -> Bool {
        error.isServerUnavailable || (unreachable.ongoing && unreachable.attempts < 10)
    }

    /// An object that could not be read because the server was away is evaluated again
    /// on the main queue (where view contexts' controllers run), after 100 ms, backing off
    /// to a second, for as long as the outage lasts and the controller lives: a change that
    /// arrived during a restart is never dropped for having waited too long (each failed
    /// try is still reported, so a UI can say the server is away).
    func evaluateAgainLater(_ id: ObjectID) {
        guard Self.isOnMainQueue else { return }
        unreachable.ids.insert(id)
        scheduleUnreachableRetry()
    }

    /// A reload that found the server away is tried again the same way.
    func reloadAgainLater() {
        guard Self.isOnMainQueue else { return }
        unreachable.reload = true
        scheduleUnreachableRetry()
    }

    private func scheduleUnreachableRetry() {
        unreachable.ongoing = true
        guard !unreachable.scheduled else { return }
        unreachable.scheduled = true
        unreachable.attempts += 1
        let delay = min(1.0, 0.1 * Double(1 << min(unreachable.attempts - 1, 4)))
        let me = Handoff(value: Weak(self))
        DispatchQueue.main.asyncAfter(deadline: .now() + delay) { me.value.object?.retryUnreachable() }
    }

    private func retryUnreachable() {
        let waiting = unreachable
        unreachable.ids = []
        unreachable.reload = false
        unreachable.scheduled = false
        guard fetched, !waiting.isEmpty else { return }
        if waiting.reload {
            lastError = nil
            reload()   // re-evaluates everything, the objects waiting included
        } else {
            pending.add(ObjectsDidChange(refreshed: waiting.ids))
            applyPendingChanges()
        }
        if unreachable.isEmpty { unreachable.attempts = 0; unreachable.ongoing = false }
    }

    /// Records an error met while keeping the list current and tells the delegate.
    /// The rows involved stay as they were; nothing is dropped silently.
    func report(_ error: any Error) {
        let e = StoreError(nesting: error)
        lastError = e
        delegate?.controller(self, didFailToUpdate: e)
    }
}
