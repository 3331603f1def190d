import VellumStore

/// How many objects the shown records' to-many relationships hold, counted by the
/// `EffectRunner` (a COUNT over the inverse, never loading them) when a record is
/// selected, and kept until a change event may have changed them. The view model
/// only looks them up, so a frame runs no query for them.
public struct RelatedCounts: Sendable, Equatable {
    private var counts: [ObjectID: [String: Int]] = [:]
    /// Why a count failed, by record and relationship (shown instead of a number).
    private var failures: [ObjectID: [String: String]] = [:]
    /// Records kept at most; beyond it the cache starts again (it holds only what was looked at).
    static let limit = 512

    public init() {}

    public func count(of id: ObjectID, _ relationship: String) -> Int? { counts[id]?[relationship] }

    /// Why counting `relationship` of `id` failed, when it did.
    public func failure(of id: ObjectID, _ relationship: String) -> String? { failures[id]?[relationship] }

    func has(_ id: ObjectID) -> Bool { counts[id] != nil }

    mutating func set(_ id: ObjectID, _ values: [String: Int], failures failed: [String: String] = [:]) {
        if counts.count >= Self.limit { counts.removeAll(); failures.removeAll() }
        counts[id] = values
        failures[id] = failed.isEmpty ? nil : failed
    }

    /// Forgets every count a change can have moved: those whose destination is of the
    /// kind of anything inserted, updated or deleted (an update may move a foreign key),
    /// and all of them when the store changed in ways not known object by object.
    mutating func invalidate(after change: ObjectsDidChange, model: ManagedObjectModel) {
        if change.storeChangedExternally || change.invalidatedAll { counts.removeAll(); failures.removeAll(); return }
        let touched = change.inserted.union(change.updated).union(change.deleted).union(change.refreshed).union(change.invalidated)
        guard !touched.isEmpty, !counts.isEmpty else { return }
        let kinds = Set(touched.map(\.entityName))
        counts = counts.filter { id, _ in
            guard !touched.contains(id) else { return false }
            guard let entity = model.entity(named: id.entityName) else { return false }
            return !entity.relationships.contains { r in
                r.isToMany && kinds.contains { model.entity(named: $0)?.isKind(of: r.destination) == true }
            }
        }
        failures = failures.filter { id, _ in counts[id] != nil }
    }
}
