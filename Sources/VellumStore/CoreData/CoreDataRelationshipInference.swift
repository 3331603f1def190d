import Foundation

/// Relationships of a model inferred from the `Z_` schema (no model cache). What the schema
/// keeps (`docs/core-data-stores.md`):
///
/// - a to-one is an INTEGER column `Z<NAME>` holding the destination's `Z_PK`, indexed
///   (`<TABLE>_<COLUMN>_INDEX`), with a companion `Z<n>_<NAME>` holding the destination
///   row's `Z_ENT` when the destination has sub-entities. The destination is told by the
///   companion's values (the entities they number, their nearest common ancestor), else by a
///   column named like an entity (`ZPERSON`), else by the stored keys: the one other root
///   table holding every key of the column. The to-many inverse has no column: its name is
///   made up (`cars` for a to-one of `Car`) and said to be so;
/// - a many-to-many is a join table `Z_<n><REL>` with key columns `Z_<m><REL>` (keys of the
///   destination, entity number `m`) and `Z_<n><INVERSE>` (keys of the entity `n` declaring
///   `REL`): both names and both ends are in the schema. An ordering column `Z_FOK_…` in the
///   join table is noted; which side is ordered is not told by the schema. Key columns
///   `Z_<n><REL>` and `Z_<n><REL>1` are a relationship of entity `n` that is its own inverse.
///
/// Names come back in lower case (the case is lost). Every relationship found is a guess:
/// its entity's version hash (which names the inverse) cannot confirm it.
enum CoreDataRelationshipInference {
    struct Result {
        /// Relationships to add, per entity name.
        var relationships: [String: [RelationshipDescription]] = [:]
        /// Columns that became to-one relationships, per root entity name (no longer attributes).
        var foreignKeyColumns: [String: Set<String>] = [:]
        var notes: [String] = []
    }

    /// `rows`: `Z_PRIMARYKEY` without history entities; `attributeColumns`: per root entity,
    /// its attribute columns as inferred; `skipped`: entities confirmed by their hash (which
    /// then have no relationships).
    static func infer(_ file: CoreDataStoreFile, rows: [CoreDataEntityRow], attributeColumns: [String: [CoreDataSchemaInference.Column]],
                      skipped: Set<String>) throws(StoreError) -> Result {
        var result = Result()
        let byNumber = Dictionary(rows.map { ($0.number, $0) }, uniquingKeysWith: { a, _ in a })
        let roots = rows.filter { $0.superNumber == 0 }
        var taken: [String: Set<String>] = [:]  // property names per entity (attributes and relationships)
        for (entity, columns) in attributeColumns { taken[entity] = Set(columns.map(\.name)) }

        func add(_ r: RelationshipDescription, to entity: String) {
            result.relationships[entity, default: []].append(r)
            taken[entity, default: []].insert(r.name)
        }
        func freeName(_ base: String, on entity: String) -> String {
            var name = base, n = 1
            while taken[entity, default: []].contains(name) { name = base + String(n); n += 1 }
            return name
        }
        func lineage(_ number: Int64) -> [Int64] {
            var out: [Int64] = [], current: Int64? = number
            while let n = current, let row = byNumber[n] { out.insert(n, at: 0); current = row.superNumber == 0 ? nil : row.superNumber }
            return out
        }

        // Many-to-many: join tables.
        let joinTables = try file.connection.rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'Z_[0-9]*' ORDER BY name")
            .compactMap { $0.first?.stringValue }
        for table in joinTables {
            guard let (n, relation) = numbered(table.dropFirst(2)), let source = byNumber[n], !skipped.contains(source.name) else { continue }
            let columns = try file.connection.rows("SELECT name FROM pragma_table_info(?1)", [.string(table)]).compactMap { $0.first?.stringValue }
            let keys = columns.filter { $0.hasPrefix("Z_") && !$0.hasPrefix("Z_FOK_") }.compactMap { c in numbered(c.dropFirst(2)).map { (column: c, number: $0.0, name: $0.1) } }
            guard keys.count == 2, let target = keys.first(where: { $0.name == relation }),
                  let other = keys.first(where: { $0.column != target.column && $0.number == n }),
                  let destination = byNumber[target.number], !skipped.contains(destination.name) else {
                result.notes.append("join table \(table): its key columns (\(keys.map(\.column).joined(separator: ", "))) are not Z_<n>\(relation) and Z_\(n)<INVERSE>; not read as a relationship")
                continue
            }
            // Key columns `Z_<n><REL>` and `Z_<n><REL>1`: a relationship that is its own inverse,
            // whose second column Core Data suffixes (`CoreDataLayout`), not one named `<rel>1`.
            let isOwnInverse = target.number == n && other.name == relation + "1"
            let name = relation.lowercased(), inverse = isOwnInverse ? name : other.name.lowercased()
            add(RelationshipDescription(name: name, destination: destination.name, inverse: inverse, isToMany: true), to: source.name)
            if !(destination.name == source.name && inverse == name) {
                add(RelationshipDescription(name: inverse, destination: source.name, inverse: name, isToMany: true), to: destination.name)
            }
            let ordering = columns.filter { $0.hasPrefix("Z_FOK_") }
            result.notes.append("\(source.name).\(name) ↔ \(destination.name).\(inverse): many-to-many from join table \(table) (names in lower case)"
                                + (ordering.isEmpty ? "" : "; its ordering column\(ordering.count == 1 ? "" : "s") \(ordering.joined(separator: ", ")) \(ordering.count == 1 ? "is" : "are") not read (which side is ordered is not in the schema)"))
        }

        // To-one: indexed integer columns, or ones with a Z_ENT companion.
        for row in roots where !skipped.contains(row.name) {
            let table = "Z" + row.name.uppercased()
            let all = try file.connection.rows("SELECT name FROM pragma_table_info(?1)", [.string(table)]).compactMap { $0.first?.stringValue }
            let indexes = Set(try file.connection.rows("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?1", [.string(table)])
                .compactMap { $0.first?.stringValue })
            for c in attributeColumns[row.name] ?? [] where c.types.first == .integer64 {
                let bare = String(c.column.dropFirst())
                let companion = all.first { name in
                    guard name.hasPrefix("Z"), let underscore = name.firstIndex(of: "_") else { return false }
                    let digits = name[name.index(after: name.startIndex)..<underscore]
                    return !digits.isEmpty && digits.allSatisfy(\.isNumber) && name[name.index(after: underscore)...] == bare
                }
                guard indexes.contains("\(table)_\(c.column)_INDEX") || companion != nil else { continue }
                var destination: CoreDataEntityRow?
                var how = ""
                if let companion {
                    let numbers = try file.connection.rows("SELECT DISTINCT \(quoteIdentifier(companion)) FROM \(quoteIdentifier(table)) WHERE \(quoteIdentifier(companion)) IS NOT NULL")
                        .compactMap { $0.first?.integerValue }.filter { byNumber[$0] != nil }
                    if var common = numbers.first.map(lineage) {
                        for n in numbers.dropFirst() {
                            let other = lineage(n)
                            common = Array(zip(common, other).prefix { $0 == $1 }.map(\.0))
                        }
                        destination = common.last.flatMap { byNumber[$0] }
                        how = "the entities its companion \(companion) names"
                    }
                }
                if destination == nil, let named = rows.first(where: { $0.name.uppercased() == bare }) {
                    destination = named
                    how = "its name"
                }
                if destination == nil {
                    let column = quoteIdentifier(c.column), from = quoteIdentifier(table)
                    let hasKeys = try file.connection.rows("SELECT 1 FROM \(from) WHERE \(column) IS NOT NULL LIMIT 1").isEmpty == false
                    var holders: [CoreDataEntityRow] = []
                    if hasKeys {
                        for other in roots {
                            let missing = try file.connection.rows("SELECT 1 FROM \(from) WHERE \(column) IS NOT NULL AND \(column) NOT IN (SELECT Z_PK FROM \(quoteIdentifier("Z" + other.name.uppercased()))) LIMIT 1")
                            if missing.isEmpty { holders.append(other) }
                        }
                    }
                    let others = holders.filter { $0.number != row.number }
                    if others.count == 1 {
                        destination = others[0]
                        how = "its keys, all in \("Z" + others[0].name.uppercased())" + (holders.count > 1 ? " (and in its own table: taken as not self-referencing)" : "")
                    } else if others.isEmpty && holders.count == 1 {
                        destination = holders[0]
                        how = "its keys, all in its own table"
                    }
                }
                guard let destination else {
                    result.notes.append("\(row.name): \(c.column) is indexed like a to-one relationship's column, but its destination cannot be told from the schema; read as an integer attribute")
                    continue
                }
                let name = c.name
                let inverse = freeName(lowerFirst(row.name) + "s", on: destination.name)
                add(RelationshipDescription(name: name, destination: destination.name, inverse: inverse), to: row.name)
                add(RelationshipDescription(name: inverse, destination: row.name, inverse: name, isToMany: true), to: destination.name)
                result.foreignKeyColumns[row.name, default: []].insert(c.column)
                result.notes.append("\(row.name).\(name): to-one to \(destination.name) from column \(c.column) (destination told by \(how)); "
                                    + "its inverse \(destination.name).\(inverse) is named by Vellum (Core Data keeps no column for a to-many)")
            }
        }
        return result
    }

    /// `<digits><NAME>` split into its number and name (nil when it does not start with digits).
    private static func numbered(_ s: Substring) -> (Int64, String)? {
        let digits = s.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count < s.count, let n = Int64(digits) else { return nil }
        return (n, String(s.dropFirst(digits.count)))
    }

    private static func lowerFirst(_ s: String) -> String { s.prefix(1).lowercased() + s.dropFirst() }
}
