import Foundation

/// Finding the row of an object whose key is a digest of its table's key columns (another
/// program's text or composite key, `StoreLayout.digestedKeyColumns`) by the values of those
/// columns, which an object read from its row knows: `"k1" = ? AND "k2" = ?` lets SQLite
/// search the primary-key index, where the digest alone (`vellum_row_version(k1, k2) = ?`)
/// is computed for every row. The digest stays in the condition, so the row found is exactly
/// the object's; an object whose values do not find its row (values not as stored, or none
/// known: an ID alone) is found by the digest, as before.
struct KeyColumnMatch {
    /// The key columns (as the layout names them) and the attributes holding them.
    let columns: [String]
    let attributes: [Int]
    let table: String

    /// Nil unless `entity`'s rows have a digested key and it maps every key column to an attribute.
    init?(entity: Entity, layout: any StoreLayout) {
        guard let m = layout.mapping(for: entity.name), let columns = layout.digestedKeyColumns(table: m.table) else { return nil }
        var attributes: [Int] = []
        for c in columns {
            guard let i = m.attributeColumns.firstIndex(of: c) else { return nil }
            attributes.append(i)
        }
        self.columns = columns
        self.attributes = attributes
        table = m.table
    }

    /// `alias."k1" = ? AND alias."k2" = ?` (unaliased without `alias`).
    func condition(alias: String?, _ q: any SQLDialect) -> String {
        let prefix = alias.map { $0 + "." } ?? ""
        return columns.map { "\(prefix)\(q.quote($0)) = ?" }.joined(separator: " AND ")
    }

    /// The object's key-column values as stored (its committed values, else its own), or nil
    /// when it knows none or one is NULL (which `=` never finds).
    func values(of o: ManagedObject, layout: any StoreLayout) -> [Value]? {
        let source = o.committed ?? (o.isFault ? [] : o.values)
        var result: [Value] = []
        for (i, column) in zip(attributes, columns) {
            guard i < source.count, !source[i].isNull else { return nil }
            result.append(layout.storedForm(source[i], table: table, column: column))
        }
        return result
    }
}
