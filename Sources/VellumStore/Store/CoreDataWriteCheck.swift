import Foundation

/// Whether Vellum writes a Core Data store so that Core Data still accepts it. What it
/// cannot yet write that way is named, and the store is opened read-only instead.
enum CoreDataWriteCheck {
    /// Why the store must not be written, or nil.
    static func refusal(differingEntities: [String], layout: CoreDataLayout, connection: Connection) throws(StoreError) -> String? {
        if !differingEntities.isEmpty {
            // The cause first: the browser's status line shows the beginning.
            return "model inferred, unconfirmed by the stored version hashes (\(differingEntities.joined(separator: ", "))); "
                + "give the app's model with --model to write"
        }
        // History rows and companion columns are written as Core Data does (`CoreDataLayout.finishSave`).
        if let unwritable = layout.history?.unwritable { return unwritable }
        let model = layout.model
        for name in model.entityNames {
            let entity = model.entity(named: name)!
            for (r, storage) in zip(entity.relationships, layout.mapping(for: name)!.relationshipStorage) {
                if case .joinTable(let table, _, _, nil) = storage, r.isOrdered {
                    return "ordered many-to-many \(name).\(r.name): its join table \(table) has no single Z_FOK_ ordering column for it "
                        + "(none, or both sides ordered), so its order cannot be written as Core Data keeps it"
                }
            }
        }
        return nil
    }

    /// Names of Core Data's SQL functions the store's triggers call (derived attributes).
    static func triggerFunctions(_ connection: Connection) throws(StoreError) -> [String] {
        let sql = try connection.rows("SELECT sql FROM sqlite_master WHERE type = 'trigger'").compactMap { $0[0].stringValue }
        var names: Set<String> = []
        for text in sql {
            var rest = Substring(text)
            while let start = rest.range(of: "NSCoreData") {
                let name = rest[start.lowerBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                names.insert(String(name))
                rest = rest[start.upperBound...]
            }
        }
        return names.sorted()
    }
}
