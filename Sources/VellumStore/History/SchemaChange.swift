import Foundation

/// What another program changed in a database's schema while it was open
/// (tables and columns; Vellum's own `_vellum_*` and SQLite's `sqlite_*` objects,
/// indexes and triggers are not reported). Delivered by
/// `PersistentContainer.observeSchemaChanges`; whoever inferred a model from the
/// file infers it again, and a browser says `summary`.
public struct SchemaChange: Sendable, Equatable {
    public var addedTables: [String] = []
    public var droppedTables: [String] = []
    /// Table → columns added to it (or dropped from it), in column order.
    public var addedColumns: [String: [String]] = [:]
    public var droppedColumns: [String: [String]] = [:]
    /// Tables with the same columns but another definition (types, keys, constraints).
    public var changedTables: [String] = []

    public var isEmpty: Bool {
        addedTables.isEmpty && droppedTables.isEmpty && addedColumns.isEmpty && droppedColumns.isEmpty && changedTables.isEmpty
    }

    /// One line: "table Genre2 added; column Track.Rating added; table Foo dropped".
    public var summary: String {
        var parts: [String] = []
        parts += addedTables.map { "table \($0) added" }
        parts += droppedTables.map { "table \($0) dropped" }
        for table in addedColumns.keys.sorted() { parts += addedColumns[table]!.map { "column \(table).\($0) added" } }
        for table in droppedColumns.keys.sorted() { parts += droppedColumns[table]!.map { "column \(table).\($0) dropped" } }
        parts += changedTables.map { "table \($0) redefined" }
        return parts.joined(separator: "; ")
    }

    /// The difference from `old` to `new`, nil when no table or column differs.
    static func between(_ old: [String: TableInfo], _ new: [String: TableInfo]) -> SchemaChange? {
        var change = SchemaChange()
        change.addedTables = new.keys.filter { old[$0] == nil }.sorted()
        change.droppedTables = old.keys.filter { new[$0] == nil }.sorted()
        for name in new.keys.sorted() {
            guard let before = old[name], let after = new[name], before != after else { continue }
            let oldColumns = before.columns.map(\.name), newColumns = after.columns.map(\.name)
            let added = newColumns.filter { !oldColumns.contains($0) }, dropped = oldColumns.filter { !newColumns.contains($0) }
            if !added.isEmpty { change.addedColumns[name] = added }
            if !dropped.isEmpty { change.droppedColumns[name] = dropped }
            if added.isEmpty && dropped.isEmpty { change.changedTables.append(name) }
        }
        return change.isEmpty ? nil : change
    }
}
