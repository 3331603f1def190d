/// `:set VALUE` over the marked rows, waiting for a yes: the column and the typed text.
public struct BulkEdit: Sendable, Equatable {
    public var key: String
    public var text: String
}

/// What a `:set` block did besides setting: rows already deleted, and rows another
/// writer changed since the question showed them (left with their value, each named).
struct BulkEditOutcome: Sendable {
    var gone = 0
    /// `Classic Teapot (12.0 → 15.0)` for each row left alone.
    var leftAlone: [String] = []

    /// The status after the save: what was set, and every row not set and why.
    func report(key: String, set: Int, of entity: String) -> String {
        var parts = ["set \(key) of \(Reducer.countText(set, entity))"]
        if gone > 0 { parts.append("\(gone) already gone") }
        if !leftAlone.isEmpty {
            parts.append("\(leftAlone.count) changed by another writer since you asked, left as they were: " + leftAlone.joined(separator: ", "))
        }
        return parts.joined(separator: "; ")
    }
}
