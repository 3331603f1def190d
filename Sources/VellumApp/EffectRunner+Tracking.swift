import Foundation
import VellumStore

/// `:track` and `:track off` from the browser: what `vellum track FILE` and `vellum untrack
/// FILE` do, asked the same way — the names that would be added or removed are shown and
/// nothing changes without the user's `y`. After the change the file is opened again, so
/// that its changes arrive object by object (tracked) or by refetching (untracked).
extension EffectRunner {
    /// Finds what tracking would add (or untracking remove) and asks; says why when there is nothing.
    func planTracking(untrack: Bool) async {
        let path = container.store.path
        let fileName = URL(fileURLWithPath: path).lastPathComponent
        guard !PersistentStore.isServerLocation(path) else {
            return send(.status("a PostgreSQL store records every writer's changes itself; nothing to \(untrack ? "untrack" : "track")", error: true))
        }
        let found = await Task.detached { () -> Result<TrackingQuestion?, StoreError> in
            do throws(StoreError) {
                if untrack {
                    let names = try HistoryTracking.trackingObjects(path: path)
                    guard !names.isEmpty else { return .success(nil) }
                    return .success(TrackingQuestion(untracking: names, trackedTables: try HistoryTracking.trackedTables(path: path), fileName: fileName))
                }
                let plan = try HistoryTracking.plan(path: path)
                return .success(plan.tables.isEmpty ? nil : TrackingQuestion(tracking: plan, fileName: fileName))
            } catch {
                return .failure(error)
            }
        }.value
        switch found {
        case .success(let question?): send(.result(.trackingNeedsConfirmation(question)))
        case .success(nil):
            send(.status(untrack ? "\(fileName) is not tracked: nothing to remove" : "\(fileName): no table to track (each is tracked already or cannot be); nothing was changed",
                         error: true))
        case .failure(let error): send(.status("\(untrack ? "untrack" : "track"): \(describe(error)); nothing was changed", error: true))
        }
    }

    /// Installs or removes tracking (one transaction in the file), then opens the file again.
    func changeTracking(_ change: TrackingQuestion.Change) async {
        let path = container.store.path
        let fileName = URL(fileURLWithPath: path).lastPathComponent
        let done = await Task.detached { () -> Result<String, StoreError> in
            do throws(StoreError) {
                switch change {
                case .track(let plan):
                    try HistoryTracking.track(plan)
                    let n = plan.tables.count
                    return .success("tracking \(n) table\(n == 1 ? "" : "s") of \(fileName): changes now arrive object by object (:track off removes it)")
                case .untrack:
                    let removed = try HistoryTracking.untrack(path: path)
                    return .success("untracked \(fileName): removed \(removed.count) names; changes are seen by refetching")
                }
            } catch {
                return .failure(error)
            }
        }.value
        switch done {
        case .success(let status): terminalRequests.append(.reopen(status: status, entity: state.currentEntityName))
        case .failure(let error): send(.status("\(describe(error)); nothing was changed", error: true))
        }
    }
}
