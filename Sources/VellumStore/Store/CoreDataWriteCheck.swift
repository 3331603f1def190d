import Foundation

/// Whether Vellum writes a Core Data store so that Core Data still accepts it. What it
/// cannot yet write that way is named, and the store is opened read-only instead.
enum CoreDataWriteCheck {
    /// Core Data's persistent-history tables (written by every save of an app that tracks history).
    static let historyTables = ["ATRANSACTION", "ACHANGE", "ATRANSACTIONSTRING"]

    /// Why the store must not be written, or nil.
    static func refusal(differingEntities: [String], layout: CoreDataLayout, connection: Connection) throws(StoreError) -> String? {
        if !differingEntities.isEmpty {
            return "its model is inferred and the store's version hashes do not confirm it (\(differingEntities.joined(separator: ", "))); "
                + "give the app's model with --model to write"
        }
        for table in historyTables where try connection.tableExists(table) {
            return "it records Core Data persistent history (\(table)), which Vellum does not write yet"
        }
        let model = layout.model
        for name in model.entityNames {
            let entity = model.entity(named: name)!
            for (r, storage) in zip(entity.relationships, layout.mapping(for: name)!.relationshipStorage) {
                if !r.isToMany, model.entity(named: r.destination)?.subentityNames.isEmpty == false {
                    return "to-one \(name).\(r.name) points at an entity with sub-entities, whose Z<n>_ column Vellum does not write yet"
                }
                if case .joinTable = storage, r.isOrdered {
                    return "ordered many-to-many \(name).\(r.name) is not written yet"
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
