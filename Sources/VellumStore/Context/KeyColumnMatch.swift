import Foundation

/// Finding the row of an object whose key is a digest of its table's key columns (another
/// program's text or composite key, `StoreLayout.digestedKeyColumns`) by the values of those
/// columns, which an object read from its row knows: `"k1" = ? AND "k2" = ?` lets SQLite
/// search the primary-key index, where the digest alone (`vellum_row_version(k1, k2) = ?`)
/// is computed for every row. The digest stays in the condition, so the row found is exactly
/// the object's; an object whose values do not find its row (values not as stored, or none
/// known: an ID alone) is found by the digest, as before.
struct KeyColumnMatch {
    /// Where an object holds a key column's value: an attribute, or a to-one stored in the
    /// column (Chinook's `PlaylistTrack`: its key is two foreign keys).
    enum Source {
        case attribute(Int)
        case toOne(Int)
    }

    /// The key columns (as the layout names them) and where the object holds each.
    let columns: [String]
    let sources: [Source]
    let table: String

    /// Nil unless `entity`'s rows have a digested key and it maps every key column to an
    /// attribute or a to-one.
    init?(entity: Entity, layout: any StoreLayout) {
        guard let m = layout.mapping(for: entity.name), let columns = layout.digestedKeyColumns(table: m.table) else { return nil }
        var sources: [Source] = []
        for c in columns {
            if let i = m.attributeColumns.firstIndex(of: c) {
                sources.append(.attribute(i))
            } else if let i = m.relationshipStorage.firstIndex(of: .foreignKey(column: c)),
                      layout.foreignKeyWriteSQL(table: m.table, column: c) == "?" {  // holds the destination's key itself
                sources.append(.toOne(i))
            } else {
                return nil
            }
        }
        self.columns = columns
        self.sources = sources
        table = m.table
    }

    /// `alias."k1" = ? AND alias."k2" = ?` (unaliased without `alias`).
    func condition(alias: String?, _ q: any SQLDialect) -> String {
        Self.condition(columns: columns, alias: alias, q)
    }

    /// `alias."c1" = ? AND alias."c2" = ?` over `columns` (also for `DigestKeyMap`'s values).
    static func condition(columns: [String], alias: String?, _ q: any SQLDialect) -> String {
        let prefix = alias.map { $0 + "." } ?? ""
        return columns.map { "\(prefix)\(q.quote($0)) = ?" }.joined(separator: " AND ")
    }

    /// The object's key-column values as stored (its committed values, else its own; a
    /// to-one's destination key), or nil when it knows none or one is NULL (which `=`
    /// never finds).
    func values(of o: ManagedObject, layout: any StoreLayout) -> [Value]? {
        let values = o.committed ?? (o.isFault ? [] : o.values)
        var result: [Value] = []
        for (source, column) in zip(sources, columns) {
            switch source {
            case .attribute(let i):
                guard i < values.count, !values[i].isNull else { return nil }
                result.append(layout.storedForm(values[i], table: table, column: column))
            case .toOne(let i):
                guard i < o.relations.count, let relation = o.relations[i],
                      let key = (relation.stored.first ?? relation.current.first)?.objectID.primaryKey else { return nil }
                result.append(.integer(key))
            }
        }
        return result
    }
}
