import Foundation

/// What the executor needs beyond the printable plan: both layouts and schemas,
/// and per table of the new model how it is reached.
struct MigrationDesign {
    let correspondence: ModelCorrespondence
    let oldLayout: any StoreLayout
    let newLayout: any StoreLayout
    let oldSchema: SchemaSnapshot
    let newSchema: SchemaSnapshot
    let sources: ColumnSources
    /// New root table → strategy.
    var roots: [String: MigrationPlan.Strategy] = [:]
    /// New root table → the copies filling it (all its entities with an old counterpart).
    var copies: [String: [EntityCopy]] = [:]
    /// Table altered in place → column definitions to add.
    var addedColumns: [String: [String]] = [:]
    /// New join table → strategy.
    var joins: [String: MigrationPlan.Strategy] = [:]

    init(old: ManagedObjectModel, new: ManagedObjectModel, connection: Connection,
         layout: (ManagedObjectModel) -> any StoreLayout) throws(StoreError) {
        correspondence = ModelCorrespondence(from: old, to: new)
        oldLayout = layout(old)
        newLayout = layout(new)
        oldSchema = try SchemaSnapshot.read(connection)
        newSchema = try SchemaSnapshot.of(newLayout)
        var sources = ColumnSources(correspondence: correspondence, oldLayout: oldLayout, newLayout: newLayout)
        sources.shifts = try KeyShifts.compute(correspondence, oldLayout: oldLayout, connection: connection)
        self.sources = sources
        for root in new.rootEntities {
            let copies = sources.copies(intoRoot: root)
            self.copies[root.name] = copies
            roots[root.name] = try strategy(root, copies, connection)
        }
        for join in newLayout.joinTables {
            let same = oldSchema.tables[join.table] == newSchema.tables[join.table] && (sources.joinRows(join)?.identity ?? false)
                && [join.sourceTable, join.targetTable].allSatisfy { roots[$0] != .rebuild }
            joins[join.table] = same ? .unchanged : .rebuild
        }
    }

    /// In place when the table keeps its name, its entities and every column's meaning,
    /// only gaining columns (filled with NULL or a constant); otherwise rebuilt.
    private mutating func strategy(_ root: Entity, _ copies: [EntityCopy], _ c: Connection) throws(StoreError) -> MigrationPlan.Strategy {
        let table = newLayout.table(of: root.name) ?? root.name
        guard let oldSQL = oldSchema.tables[table], let newSQL = newSchema.tables[table],
              let added = SchemaSnapshot.addedColumnDefinitions(old: oldSQL, new: newSQL),
              let oldRoot = correspondence.old.entity(named: root.name), oldRoot.declaration.parent == nil,
              Set(oldRoot.hierarchyNames) == Set(root.hierarchyNames),
              copies.count == root.hierarchyNames.count, copies.allSatisfy({ $0.oldEntity == $0.newEntity })
        else { return .rebuild }
        // The columns from the table's text when it reads plainly (a query costs a parse and a
        // plan: a tenth of a small migration), else from SQLite.
        let oldColumns: Set<String>
        if let names = SchemaSnapshot.columnNames(ofTable: oldSQL) {
            oldColumns = Set(names)
        } else {
            oldColumns = Set(try c.rows("SELECT name FROM pragma_table_info(?)", [.string(table)]).compactMap { $0[0].stringValue })
        }
        for copy in copies {
            for (column, source) in copy.columns {
                switch source {
                case .column(let old), .coalesce(let old, _):
                    if old != column || !oldColumns.contains(column) { return .rebuild }
                case .null, .constant:
                    if oldColumns.contains(column) { return .rebuild }
                case .expression, .converted:
                    return .rebuild
                }
            }
        }
        let fills = copies.contains { $0.columns.contains { if case .column = $0.source { return false }; return true } }
        let indexesChange = oldSchema.indexes(of: table) != newSchema.indexes(of: table)
        if added.isEmpty && !fills && !indexesChange { return .unchanged }
        addedColumns[table] = added
        return .alter
    }
}
