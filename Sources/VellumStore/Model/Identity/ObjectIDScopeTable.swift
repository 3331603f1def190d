/// The intern table of object-ID scopes: one scope object per (store, root,
/// entity) for as long as anything holds one, so IDs compare by reference and a
/// context's registry finds a root's objects by the root scope's identity.
///
/// Stores and IDs hold their scopes strongly, and so does the table; a scope only
/// the table holds (a closed store's, all of whose IDs are gone) is dropped by a
/// sweep when the table has doubled since the last one. Sweeping is amortized O(1)
/// per new scope, and the table stays within twice the scopes in use (plus a floor).
/// A scope still held is never dropped, so a reopened store shares it with the IDs
/// taken before it closed. Not locked itself: `ObjectIDScope` keeps it in a `Locked` (a Mutex).
struct ObjectIDScopeTable {
    private var scopes: [String: ObjectIDScope] = [:]
    private static let floor = 64
    private var sweepAt = floor

    var count: Int { scopes.count }

    /// The scope interned under `key`, made (and interned) if there is none.
    mutating func scope(for key: String, make: () -> ObjectIDScope) -> ObjectIDScope {
        if let s = scopes[key] { return s }
        if scopes.count >= sweepAt {
            // Sub-entity scopes hold their root's, so they go first.
            sweep(roots: false)
            sweep(roots: true)
            sweepAt = max(Self.floor, 2 * scopes.count)
        }
        let s = make()
        scopes[key] = s
        return s
    }

    /// Drops the scopes only the table references. Under the table's lock nobody can
    /// copy the table's reference, so a scope seen unique here stays unused.
    private mutating func sweep(roots: Bool) {
        // Walked by index, holding no second reference to the storage (which would
        // make every value look shared).
        var unused: [String] = []
        var index = scopes.startIndex
        while index != scopes.endIndex {
            let isRoot = scopes.values[index].isRoot
            if isRoot == roots && isKnownUniquelyReferenced(&scopes.values[index]) { unused.append(scopes.keys[index]) }
            scopes.formIndex(after: &index)
        }
        for key in unused { scopes[key] = nil }
    }
}
