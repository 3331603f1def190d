extension ManagedObject: HistoryRecordable {
    /// The values as read from the store: unsaved changes are not part of a tombstone.
    var storedValues: [Value] { committed ?? values }
}
