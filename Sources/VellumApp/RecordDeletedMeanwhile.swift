/// A record a write needs was deleted by another writer before the save: the record whose
/// to-many was being changed, or the one picked for a form's to-one.
struct RecordDeletedMeanwhile: Error, CustomStringConvertible {
    /// The form field that picked it (the cursor goes back there), for a pick.
    let field: String?
    let description: String

    static func picked(for key: String) -> Self {
        Self(field: key, description: "the \(key) picked was deleted meanwhile: pick another")
    }

    /// A member chosen for the form's to-many `key`.
    static func chosen(for key: String) -> Self {
        Self(field: key, description: "a record chosen for \(key) was deleted meanwhile: choose again")
    }

    static func changed(_ entity: String) -> Self {
        Self(field: nil, description: "this \(entity) was deleted by another writer")
    }
}
