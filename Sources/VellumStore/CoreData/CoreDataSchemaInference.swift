import Foundation

/// Infers a model from the `Z_` schema of a store without a model cache (stores last written
/// before Core Data 637). The schema loses the case of names, optionality and the exact type
/// within a column class; where the store's version hashes allow it, a search over those
/// choices confirms the guesses (`confirm`).
enum CoreDataSchemaInference {
    /// A column read as an attribute: its guessed name and the types its class allows.
    struct Column {
        var column: String
        var name: String
        var types: [AttributeType]
    }

    /// The inferred model and, per entity, what is guessed or confirmed.
    static func infer(_ file: CoreDataStoreFile, storedHashes: [String: Data]) throws(StoreError) -> (CoreDataModel, [String]) {
        // Persistent-history entities (16001…) are Core Data's own.
        let rows = try file.primaryKeyRows().filter { $0.number < 16000 }
        let names = Dictionary(rows.map { ($0.number, $0.name) }, uniquingKeysWith: { a, _ in a })
        var entities: [EntityDescription] = []
        var notes: [String] = []
        var attributeColumns: [String: [Column]] = [:]
        var confirmedEntities: Set<String> = []
        for row in rows {
            var e = EntityDescription(name: row.name, parent: row.superNumber == 0 ? nil : names[row.superNumber])
            guard e.parent == nil else {
                entities.append(e)
                notes.append("\(row.name): its own attributes cannot be told apart from its parent's (they share one table); all are shown on the root entity")
                continue
            }
            let columns = try self.columns(file, table: "Z" + row.name.uppercased())
            let hasChildren = rows.contains { $0.superNumber == row.number }
            attributeColumns[row.name] = columns
            if !hasChildren, let stored = storedHashes[row.name], let confirmed = confirm(row.name, columns, stored) {
                e.attributes = confirmed
                confirmedEntities.insert(row.name)
                let left = Set(columns.map(\.name)).subtracting(confirmed.map(\.name)).sorted()
                notes.append("\(row.name): names, types and optionality confirmed by the stored version hash"
                             + (left.isEmpty ? "" : "; column\(left.count == 1 ? "" : "s") \(left.map { "Z" + $0.uppercased() }.joined(separator: ", ")) \(left.count == 1 ? "is" : "are") not in the model (added outside Core Data)"))
            } else {
                e.attributes = columns.map { AttributeDescription(name: $0.name, type: $0.types[0]) }
                let narrow = columns.filter { $0.types.count > 1 }.map { "\($0.name) (\($0.types.map(\.rawValue).joined(separator: "/")))" }
                notes.append("\(row.name): guessed, not confirmed: names in lower case, every attribute optional"
                             + (narrow.isEmpty ? "" : "; types may be narrower: " + narrow.joined(separator: ", "))
                             + "; an integer column neither indexed nor with a Z_ENT companion may still be a to-one relationship")
            }
            entities.append(e)
        }
        // Relationships: to-one columns and join tables (`CoreDataRelationshipInference`).
        let found = try CoreDataRelationshipInference.infer(file, rows: rows, attributeColumns: attributeColumns, skipped: confirmedEntities)
        for i in entities.indices {
            if let columns = found.foreignKeyColumns[entities[i].name], let all = attributeColumns[entities[i].name] {
                let names = Set(all.filter { columns.contains($0.column) }.map(\.name))
                entities[i].attributes.removeAll { names.contains($0.name) }
            }
            entities[i].relationships += found.relationships[entities[i].name] ?? []
        }
        notes += found.notes
        do {
            return (CoreDataModel(model: try ManagedObjectModel(entities: entities)), notes)
        } catch {
            throw .malformedCoreData(what: "\(file.path): schema", offset: nil, reason: "the inferred model is not valid: \(error)")
        }
    }

    /// The attribute columns of a root table: not `Z_PK`/`Z_ENT`/`Z_OPT`, ordering or companion columns.
    static func columns(_ file: CoreDataStoreFile, table: String) throws(StoreError) -> [Column] {
        try file.connection.rows("SELECT name, type FROM pragma_table_info(?1)", [.string(table)]).compactMap { row in
            guard let column = row[0].stringValue, column.hasPrefix("Z"), !column.hasPrefix("Z_"),
                  column.dropFirst().first?.isNumber == false else { return nil }
            let declared = (row[1].stringValue ?? "").uppercased()
            let types: [AttributeType]
            switch declared {
            case "INTEGER": types = [.integer64, .integer32, .integer16, .boolean]
            case "FLOAT": types = [.double, .float]
            case "TIMESTAMP": types = [.date]
            case "DECIMAL": types = [.decimal]
            case "BLOB": types = [.binary, .transformable, .uuid]
            default: types = [.string, .uri]
            }
            return Column(column: column, name: String(column.dropFirst()).lowercased(), types: types)
        }
    }

    /// The attributes (a subset of the columns, each with one type and optionality) whose
    /// hash equals the stored one, if any; the search is bounded.
    static func confirm(_ entity: String, _ columns: [Column], _ stored: Data) -> [AttributeDescription]? {
        // Each column: left out, or one of its types, optional or not.
        let choices = columns.map { c in [nil] + c.types.flatMap { t in [(t, true), (t, false)] } }
        let total = choices.reduce(1.0) { $0 * Double($1.count) }
        guard total <= 200_000 else { return nil }
        var pick = [Int](repeating: 0, count: columns.count)
        while true {
            var attributes: [AttributeDescription] = []
            for (i, c) in columns.enumerated() {
                if let (type, optional) = choices[i][pick[i]] { attributes.append(AttributeDescription(name: c.name, type: type, isOptional: optional)) }
            }
            if CoreDataVersionHash.entityHash(name: entity, attributes: attributes) == stored { return attributes }
            var i = 0
            while i < pick.count {
                pick[i] += 1
                if pick[i] < choices[i].count { break }
                pick[i] = 0
                i += 1
            }
            if i == pick.count { return nil }
        }
    }
}
