import Foundation

extension MigrationDesign {
    /// The design of a PostgreSQL store's migration: every table of the new model is
    /// built anew in a staging schema (`PostgreSQLMigrationExecutor`), so each is a
    /// rebuild; the layouts are the server's (`PostgreSQLLayout`) over `layout`'s names.
    init(server old: ManagedObjectModel, new: ManagedObjectModel, layout: (ManagedObjectModel) -> any StoreLayout) {
        correspondence = ModelCorrespondence(from: old, to: new)
        oldLayout = PostgreSQLLayout(base: layout(old))
        newLayout = PostgreSQLLayout(base: layout(new))
        oldSchema = SchemaSnapshot()
        newSchema = SchemaSnapshot()
        sources = ColumnSources(correspondence: correspondence, oldLayout: oldLayout, newLayout: newLayout)
        for root in new.rootEntities {
            copies[root.name] = sources.copies(intoRoot: root)
            roots[root.name] = .rebuild
        }
        for join in newLayout.joinTables { joins[join.table] = .rebuild }
    }
}
