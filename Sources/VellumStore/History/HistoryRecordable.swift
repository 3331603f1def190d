/// What the history writer needs of a saved object. The context's objects
/// conform, so history records a save without depending on the context layer.
protocol HistoryRecordable {
    var entity: Entity { get }
    var objectID: ObjectID { get }
    /// The primary key a save in progress gave an inserted object.
    var pendingKey: Int64? { get }
    /// The values as last stored (a deleted object's tombstone is taken from them).
    var storedValues: [Value] { get }
}
