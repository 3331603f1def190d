/// A context's uniquing table: at most one object per ID.
///
/// Saved objects (permanent IDs) live in one `PagedKeyTable` per root table,
/// found through the ID's interned root scope, so a lookup hashes one integer —
/// no names, no reference counting of ID parts — and tearing down 100,000
/// entries releases only the objects. Other IDs (temporary ones registered by
/// merges or conflict handling) fall back to a dictionary.
///
/// A class (the context holds one for its life), so lookups may update the
/// last-table cache without exclusive access to the context's property.
/// Not safe to mutate while iterating: `forEach` walks the tables in place;
/// `values` returns a copy for loops that change the registry.
final class ObjectRegistry {
    private var tables: [ObjectIdentifier: PagedKeyTable<ManagedObject>] = [:]
    private var others: [ObjectID: ManagedObject] = [:]
    /// The last table used: fetches and saves touch one root at a time.
    private var last: (root: ObjectIdentifier, table: PagedKeyTable<ManagedObject>)?

    var count: Int { tables.values.reduce(others.count) { $0 + $1.count } }
    var isEmpty: Bool { others.isEmpty && tables.values.allSatisfy { $0.count == 0 } }

    private func table(for scope: ObjectIDScope, creating: Bool) -> PagedKeyTable<ManagedObject>? {
        let root = scope.rootIdentity
        if let last, last.root == root { return last.table }
        var table = tables[root]
        if table == nil && creating {
            table = PagedKeyTable<ManagedObject>()
            tables[root] = table
        }
        if let table { last = (root, table) }
        return table
    }

    subscript(id: ObjectID) -> ManagedObject? {
        get {
            guard case .permanent(let pk) = id.key else { return others[id] }
            return table(for: id.scope, creating: false)?.value(for: pk)
        }
        set {
            guard case .permanent(let pk) = id.key else { others[id] = newValue; return }
            if let newValue {
                table(for: id.scope, creating: true)!.insert(newValue, for: pk)
            } else {
                table(for: id.scope, creating: false)?.remove(pk)
            }
        }
    }

    /// Sets the object for an ID and returns the one it replaced.
    @discardableResult
    func updateValue(_ object: ManagedObject, forKey id: ObjectID) -> ManagedObject? {
        guard case .permanent(let pk) = id.key else { return others.updateValue(object, forKey: id) }
        return table(for: id.scope, creating: true)!.insert(object, for: pk)
    }

    /// The table of saved objects of `scope`'s root, for loops over one table.
    func primaryKeyTable(for scope: ObjectIDScope) -> PagedKeyTable<ManagedObject> {
        table(for: scope, creating: true)!
    }

    /// Makes room for `additional` more objects of `scope`'s root without growing.
    func reserveCapacity(_ additional: Int, for scope: ObjectIDScope) {
        table(for: scope, creating: true)!.reserveCapacity(additional)
    }

    /// Calls `body` with every registered object; `body` must not change the registry.
    func forEach(_ body: (ManagedObject) throws -> Void) rethrows {
        for table in tables.values { try table.forEach { _, o in try body(o) } }
        for o in others.values { try body(o) }
    }

    /// Every registered object, copied (safe to change the registry while looping).
    var values: [ManagedObject] {
        var all: [ManagedObject] = []
        all.reserveCapacity(count)
        forEach { all.append($0) }
        return all
    }

    func removeAll() {
        tables = [:]
        others = [:]
        last = nil
    }
}
