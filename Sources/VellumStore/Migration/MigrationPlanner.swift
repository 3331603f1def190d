import Foundation

/// Infers the lightweight migration from the model stored in a file to another
/// model, and runs its checks against the stored rows (read only).
enum MigrationPlanner {
    static func plan(_ d: MigrationDesign, path: String, connection c: Connection) throws(StoreError) -> MigrationPlan {
        let diff = ModelDiff.changes(d.correspondence)
        var steps: [MigrationPlan.EntityStep] = []
        for name in d.correspondence.new.entityNames {
            let entity = d.correspondence.new.entity(named: name)!
            var step = MigrationPlan.EntityStep(
                entity: name, changes: diff.filter { $0.entity == name }.map(\.detail),
                strategy: d.roots[entity.rootName] ?? .rebuild, rows: nil, checks: [], refusals: [])
            if let old = d.correspondence.oldEntity(for: name) {
                let probe = EntityProbe(design: d, connection: c, new: entity, old: old)
                // A rebuild copies every row (the progress needs the total); ALTER reads none.
                if step.strategy == .rebuild { _ = try probe.rows(&step) }
                try probe.check(into: &step)
            } else {
                step.rows = 0   // a new entity's table starts empty
            }
            steps.append(step)
        }
        for name in d.correspondence.old.entityNames where d.correspondence.newEntityName(for: name) == nil {
            let old = d.correspondence.old.entity(named: name)!
            let rows = try EntityProbe.count(c, d.oldLayout, entity: old)
            let dropped = rows == 0 ? [] : [rows == 1 ? "its 1 row is dropped (kept in the backup)" : "its \(rows) rows are dropped (kept in the backup)"]
            steps.append(MigrationPlan.EntityStep(entity: name, changes: ["entity removed"] + dropped, strategy: .rebuild,
                                                  rows: rows, checks: [], refusals: []))
        }
        var tables = d.roots
        for (k, v) in d.joins { tables[k] = v }
        try collisions(d, c, into: &steps)
        return MigrationPlan(path: path, fromHash: d.correspondence.old.versionHash, toHash: d.correspondence.new.versionHash,
                             steps: steps, tables: tables)
    }

    /// Rows of entities gathered into one table from several old tables must not share keys.
    private static func collisions(_ d: MigrationDesign, _ c: Connection, into steps: inout [MigrationPlan.EntityStep]) throws(StoreError) {
        let pk = quoteIdentifier(d.oldLayout.primaryKeyColumn)
        let kind = quoteIdentifier(d.oldLayout.entityColumn)
        for (_, copies) in d.copies {
            let tables = Dictionary(grouping: copies, by: \.oldTable)
            guard tables.count > 1 else { continue }
            let main = copies[0].oldTable
            for (table, moved) in tables where table != main {
                if let note = d.sources.shifts.notes[table] {
                    let change = "\(note.rows) row\(note.rows == 1 ? "" : "s") get new keys (key + \(note.offset)): their keys are taken in \(note.into); their object IDs change"
                    if let i = steps.firstIndex(where: { $0.entity == moved[0].newEntity }) { steps[i].changes.append(change) }
                    continue
                }
                let kinds = moved.map { EntityProbe.literal($0.oldEntity) }.joined(separator: ", ")
                let others = tables[main]!.map { EntityProbe.literal($0.oldEntity) }.joined(separator: ", ")
                let sql = "SELECT s.\(pk) FROM \(quoteIdentifier(table)) s WHERE s.\(kind) IN (\(kinds)) AND s.\(pk) IN (SELECT \(pk) FROM \(quoteIdentifier(main)) WHERE \(kind) IN (\(others)))"
                let keys = try c.rows(sql).compactMap(\.first?.integerValue)
                let check = MigrationPlan.Check(what: "keys distinct from \(main)'s rows (moved into its hierarchy)", failingRows: keys.count, examples: Array(keys.prefix(5)))
                if let i = steps.firstIndex(where: { $0.entity == moved[0].newEntity }) { steps[i].checks.append(check) }
            }
        }
    }
}
