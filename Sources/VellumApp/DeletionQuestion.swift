import VellumStore

/// The "delete?" question `d` asks, with the delete rules' consequences counted
/// before anything is deleted: the records cascade rules take along, or — when a
/// deny rule would refuse the save — why nothing can be deleted.
public struct DeletionQuestion: Sendable, Equatable {
    /// The status line's question (when not refused).
    public var prompt: String
    /// Records deleted by cascade besides those asked for.
    public var cascaded: Int
    /// Why the delete would be refused (a deny rule), or nil.
    public var refusal: String?

    /// `entity`: the listed entity; `marked`: the question is about the marked rows.
    public init(_ preview: DeletionPreview, entity: String, marked: Bool) {
        let asked = preview.deleted.values.reduce(0, +) - preview.cascadedCount
        var what = marked ? "\(Reducer.countText(asked, entity)) (marked)" : "this \(entity)"
        if preview.missing > 0 { what += "; \(preview.missing) already gone" }
        let cascades = preview.cascaded.sorted { $0.key < $1.key }.map { Reducer.countText($0.value, $0.key) }
        if !cascades.isEmpty { what += " and, by cascade, " + cascades.joined(separator: ", ") }
        prompt = "delete \(what)? y/n"
        cascaded = preview.cascadedCount
        refusal = preview.denials.first.map { denial in
            let related = denial.related == 1 ? "1 object" : "\(denial.related) objects"
            let holders = denial.objects == 1 ? denial.entity : Reducer.countText(denial.objects, denial.entity)
            return "cannot delete: \(holders).\(denial.relationship) still has \(related) and its delete rule is deny; nothing deleted"
        }
    }
}
