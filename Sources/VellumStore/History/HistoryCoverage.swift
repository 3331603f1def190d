/// Which of a store's tables its history watches. A native store's history triggers
/// cover every root and join table; a file tracked with `vellum track` may cover only
/// some (tables left out, `WITHOUT ROWID` tables, views): another program's change to
/// one of those leaves no history row, and is seen only as a changed file.
extension PersistentStore {
    /// The tables entities or join tables are read from that no history trigger watches,
    /// sorted; empty when history covers them all.
    func tablesWithoutHistory(using c: Connection) throws(StoreError) -> [String] {
        let watched = Set(try HistoryTracking.trackedTables(c))
        let read = model.rootEntities.compactMap { layout.mapping(for: $0.name)?.table } + layout.joinTables.map(\.table)
        return Set(read).subtracting(watched).sorted()
    }
}
