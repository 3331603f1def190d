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

extension PersistentStore {
    /// True when other writers' changes are known only as "something changed"
    /// (no history in the file, or `ChangeDetection.coarse`): lists refetch and diff.
    public var detectsChangesCoarsely: Bool { !hasHistory || options.changeDetection == .coarse }
}
