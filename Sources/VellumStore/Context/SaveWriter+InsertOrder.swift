import Foundation

extension SaveWriter {
    /// `inserted`, each after the inserted objects its to-ones refer to by a key its row
    /// only has once written (`StoreLayout.foreignKeyWriteSQL`: another program's text key
    /// or UNIQUE column, found by the object's key when the referring row is written).
    /// Otherwise in their order; a cycle is broken where it closes.
    func destinationsFirst(_ inserted: [ManagedObject]) -> [ManagedObject] {
        let pending = Set(inserted.map(ObjectIdentifier.init))
        var placed: Set<ObjectIdentifier> = []
        var visiting: Set<ObjectIdentifier> = []
        var order: [ManagedObject] = []
        func place(_ o: ManagedObject) {
            let id = ObjectIdentifier(o)
            guard pending.contains(id), !placed.contains(id), visiting.insert(id).inserted else { return }
            let m = layout.mapping(for: o.entity.name)!
            for (i, storage) in m.relationshipStorage.enumerated() where i < o.relations.count {
                guard case .foreignKey(let column) = storage, layout.foreignKeyWriteSQL(table: m.table, column: column) != "?",
                      let destination = o.relations[i]?.current.first else { continue }
                place(destination)
            }
            placed.insert(id)
            order.append(o)
        }
        inserted.forEach(place)
        return order
    }
}
