import VellumStore

/// How a sort by several keys shows: each sorted column's header carries its
/// direction and, when there are several keys, its place in the order (`price ▼2`).
enum SortMarks {
    /// The header's place suffix for the column that sorts by `keyPath` (the direction of
    /// the primary key is drawn by the header itself); "" when the list is sorted by one
    /// key or not by this column.
    static func position(of keyPath: [String]?, in sorts: [VellumStore.QuerySortDescriptor]) -> String {
        guard sorts.count > 1, let keyPath, let at = sorts.firstIndex(where: { $0.keyPath == keyPath }) else { return "" }
        return at == 0 ? "1" : (sorts[at].ascending ? " ▲" : " ▼") + String(at + 1)
    }

    /// The status bar's `name ▲, price ▼`.
    static func summary(_ sorts: [VellumStore.QuerySortDescriptor]) -> String {
        sorts.map { "\($0.keyPath.joined(separator: ".")) \($0.ascending ? "▲" : "▼")" }.joined(separator: ", ")
    }
}
