import VellumStore

/// The table's data seam: ordered row IDs plus lazily loaded objects.
/// `ResultsRowSource` implements it over a `ResultsController`.
@MainActor
public protocol RowSource: AnyObject {
    var entityName: String { get }
    var count: Int { get }
    /// All IDs in order (copies them: O(n); prefer `id(at:)` for one row).
    var rowIDs: [ObjectID] { get }
    /// The ID of one row, nil when out of range.
    func id(at index: Int) -> ObjectID?
    /// The sort actually used (the user's, or the default one).
    var effectiveSort: VellumStore.QuerySortDescriptor? { get }
    /// The object for a row; values load on first access (faults, in batches).
    func object(at index: Int) throws -> ManagedObject
    /// The row of an object, by identity.
    func index(of id: ObjectID) -> Int?
    /// Called with the view context's ObjectsDidChange; returns true if the rows may have changed.
    func refresh(after change: ObjectsDidChange) throws -> Bool
    /// Re-runs the query from scratch (new filter or sort).
    func reload() throws
    /// After a first screen drawn from a first page: index the remaining rows.
    /// Returns true if it did something (the screen should be redrawn).
    func completeIndexing() throws -> Bool
    /// Stops indexing the remaining rows for now (other work has the processor);
    /// `completeIndexing` starts it again.
    func pauseIndexing()
}

extension RowSource {
    public func completeIndexing() throws -> Bool { false }
    public func pauseIndexing() {}
}
