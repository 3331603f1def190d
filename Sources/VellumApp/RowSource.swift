import VellumStore

/// The table's data seam: ordered row IDs plus lazily loaded objects.
/// `FetchRowSource` implements it today; a ResultsController (with
/// incremental diffs) can replace it without touching the view.
@MainActor
public protocol RowSource: AnyObject {
    var entityName: String { get }
    var count: Int { get }
    var rowIDs: [ObjectID] { get }
    /// The object for a row; values load on first access (faults).
    func object(at index: Int) throws -> ManagedObject
    /// Called with the view context's ObjectsDidChange; returns true if the rows may have changed.
    func refresh(after change: ObjectsDidChange) throws -> Bool
    /// Re-runs the query from scratch (new filter or sort).
    func reload() throws
}
