import Foundation

/// How a store learns what other writers changed (`StoreOptions.changeDetection`).
public enum ChangeDetection: Sendable, Hashable {
    /// Object by object from persistent history when the file records it
    /// (`_vellum_changes`); coarsely otherwise.
    case automatic
    /// Changes are detected coarsely: only that another connection committed
    /// (`PRAGMA data_version`), never which objects — history is not read even
    /// when present. Open results controllers then refetch and diff.
    case coarse
}

/// Where a layout's stores learn what other writers changed, object by object (`StoreLayout.changeSource`).
public enum LayoutChangeSource: Sendable {
    /// Vellum's persistent history (`_vellum_changes`) when the store has it; coarsely otherwise.
    case vellumHistory
    /// The rows themselves, which every writer keeps versioned (Core Data's `Z_OPT`).
    case rowVersions(RowVersionSource)
}

/// Tables whose rows carry the entity as a number and a version every writer bumps:
/// a scan of key, entity and version per table against the last scan gives the
/// inserted, updated and deleted objects (`CoreDataChangeReader`).
public struct RowVersionSource: Sendable {
    /// Entity name per stored entity number.
    public var entityNames: [Int64: String]
    /// The tables to scan, sorted.
    public var tables: [String]
    /// True when the store may record Core Data's persistent history (`ATRANSACTION`/`ACHANGE`),
    /// read in place of scans when it does.
    public var hasCoreDataHistory: Bool

    public init(entityNames: [Int64: String], tables: [String], hasCoreDataHistory: Bool) {
        self.entityNames = entityNames
        self.tables = tables
        self.hasCoreDataHistory = hasCoreDataHistory
    }
}

extension PersistentStore {
    /// True when other writers' changes are known only as "something changed"
    /// (no history in the file, or `ChangeDetection.coarse`): lists refetch and diff.
    /// A layout whose rows tell changes apart (`LayoutChangeSource.rowVersions`, a Core Data
    /// store) has them known object by object (`CoreDataChangeReader`).
    public var detectsChangesCoarsely: Bool {
        if options.changeDetection == .coarse { return true }
        if case .rowVersions = layout.changeSource { return false }
        return !hasHistory
    }
}
