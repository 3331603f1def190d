import Foundation

/// New keys for rows gathered into one root table from several old tables whose keys
/// collide (two entities, each with its own table and key sequence, moved into one
/// hierarchy): the rows of such an old table get `key + offset`, past every key the
/// table they join has handed out, and every reference to them — foreign keys, join
/// tables, the key sequence — is shifted alike. Core Data re-keys in the same case.
/// Rows that collide with nothing keep their keys (and object IDs).
struct KeyShifts {
    /// Old root table → how its rows are shifted (what the plan says of it).
    private(set) var notes: [String: Note] = [:]

    struct Note {
        /// The new root table the rows join.
        var into: String
        var rows: Int
        var offset: Int64
    }

    func offset(of oldTable: String) -> Int64 { notes[oldTable]?.offset ?? 0 }

    /// `key` (SQL over a row of `oldTable`, or a reference to one) as the migrated key.
    func shifted(_ key: String, oldTable: String) -> String {
        let o = offset(of: oldTable)
        return o == 0 ? key : "(\(key) + \(o))"
    }

    /// Which old tables need new keys, from the stored rows (read only). An old table
    /// whose rows go to several new roots is never shifted: the plan refuses a collision
    /// there, as a reference to one of its rows could not tell which shift applies.
    static func compute(_ correspondence: ModelCorrespondence, oldLayout: any StoreLayout,
                        connection c: Connection) throws(StoreError) -> KeyShifts {
        // Per new root, the old tables feeding it (with the old entities each gives), in hierarchy order.
        var feeds: [(root: String, tables: [(table: String, kinds: [String])])] = []
        var rootsOfTable: [String: Set<String>] = [:]
        for root in correspondence.new.rootEntities {
            var tables: [(table: String, kinds: [String])] = []
            for name in root.hierarchyNames {
                guard let o = correspondence.oldEntity(for: name), let om = oldLayout.mapping(for: o.name) else { continue }
                if let i = tables.firstIndex(where: { $0.table == om.table }) { tables[i].kinds.append(o.name) } else { tables.append((om.table, [o.name])) }
                rootsOfTable[om.table, default: []].insert(root.name)
            }
            feeds.append((root.name, tables))
        }
        let pk = quoteIdentifier(oldLayout.primaryKeyColumn), kind = quoteIdentifier(oldLayout.entityColumn)
        func kinds(_ names: [String]) -> String { names.map(EntityProbe.literal).joined(separator: ", ") }
        func highest(_ table: String) throws(StoreError) -> Int64 {
            let key = try c.scalarInt("SELECT max(\(pk)) FROM \(quoteIdentifier(table))") ?? 0
            guard try c.tableExists("sqlite_sequence") else { return key }
            return max(key, try c.scalarInt("SELECT seq FROM sqlite_sequence WHERE name = ?", [.string(table)]) ?? 0)
        }
        var shifts = KeyShifts()
        for (root, tables) in feeds where tables.count > 1 {
            var placed: [(table: String, kinds: [String], offset: Int64)] = [(tables[0].table, tables[0].kinds, 0)]
            var ceiling = try highest(tables[0].table)
            for (table, names) in tables.dropFirst() {
                var offset: Int64 = 0
                if rootsOfTable[table]?.count == 1 {
                    var collides = false
                    for p in placed where !collides {
                        let sql = """
                            SELECT EXISTS (SELECT 1 FROM \(quoteIdentifier(table)) s WHERE s.\(kind) IN (\(kinds(names))) \
                            AND s.\(pk) IN (SELECT \(pk) + \(p.offset) FROM \(quoteIdentifier(p.table)) WHERE \(kind) IN (\(kinds(p.kinds)))))
                            """
                        collides = try c.scalarInt(sql) == 1
                    }
                    if collides {
                        offset = ceiling
                        let rows = try c.scalarInt("SELECT count(*) FROM \(quoteIdentifier(table)) WHERE \(kind) IN (\(kinds(names)))") ?? 0
                        shifts.notes[table] = Note(into: root, rows: Int(rows), offset: offset)
                    }
                }
                placed.append((table, names, offset))
                ceiling = max(ceiling, try highest(table) + offset)
            }
        }
        return shifts
    }
}
