import Foundation

/// How a save resolves conflicts with changes other writers committed since
/// this context read its objects. Same meanings as Core Data's policies.
public enum MergePolicy: Sendable, Hashable {
    /// The save fails with `StoreError.conflicts`, listing every conflict.
    case error
    /// Property by property; where both sides changed a property, the store wins.
    case mergeByPropertyStoreTrump
    /// Property by property; where both sides changed a property, this context wins.
    /// A uniqueness conflict becomes an update of the existing row.
    case mergeByPropertyObjectTrump
    /// This context's object replaces the stored one entirely.
    case overwrite
    /// The stored object is kept; this context's changes to it are dropped.
    case rollback
}
