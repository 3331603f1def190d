import Foundation
import VellumStore

/// What the store tells the browser (saves, merges, failures, other writers):
/// an input of the reducer like a key, so only the reducer changes the state.
public enum StoreEvent: Sendable, Equatable {
    /// Other writers inserted or changed these records at `at`: they flash for a while.
    case changedElsewhere(Set<ObjectID>, at: Date)
    /// Who wrote last from outside, and when (the status bar names them).
    case remoteWriter(author: String?, at: Date)
    /// Records per entity, by index in `entityNames` (only the entities recounted).
    case counted([Int: Int])
    /// These entities (by index) could not be counted, and why: the sidebar marks
    /// them ⚠ (not 0) and the status line gives the reason.
    case countFailed([Int: String])
    /// Records per entity grew or shrank by these numbers (a merged save's inserts and deletes).
    case countsChanged([Int: Int])
    /// A user action was saved: the status says what it did.
    case saved(String)
    /// A user action was not saved (nothing stays behind): the status says why.
    case saveFailed(String)
    /// Another writer's save could not be merged into the view.
    case mergeFailed(String)
}
