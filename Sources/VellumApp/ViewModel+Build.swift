import Foundation
import VellumStore

extension ViewModel {
    /// Reads what the frame shows from the row source: the visible rows' values and
    /// the shown record's fields; to-many relationships show the counts the runner
    /// keeps (`RelatedCounts`, counted for the shown rows by `BrowserSession.viewModel`),
    /// so no query runs for them here.
    @MainActor
    /// `lines`: the frame's table lines when the caller has them (else worked out here).
    static func build(state s: AppState, layout: Layout, fileName: String, entity: Entity?, rows: RowSource?, lines given: [TableLine]? = nil,
                      entityCounts: [Int], relatedCounts: RelatedCounts, pendingWrites: Int, now: Date = Date()) -> ViewModel {
        var model = ViewModel(state: s, layout: layout, fileName: fileName, entityCounts: entityCounts,
                              pendingWrites: pendingWrites, table: nil, detail: nil)
        guard let entity, let rows else { return model }
        let lines = given ?? s.tableLines(height: layout.visibleRows)
        var tableRows: [TableView.Row] = []
        for case .row(let index) in lines {
            // A row or value that cannot be read shows ⚠ and why, never a blank or a stand-in.
            let object = Result { try rows.object(at: index) }
            let cells = s.columnNames.indices.map { c in
                failureText { try cellText(object.get(), column: c, state: s, counts: relatedCounts) }
            }
            let loaded: ManagedObject? = if case .success(let o) = object { o } else { nil }
            let flashing = loaded.map { o in (s.flashes[o.objectID].map { $0 > now }) ?? false } ?? false
            let marked = !s.marked.isEmpty && loaded.map { s.marked.contains($0.objectID) } == true
            var found: TableView.FoundMark?
            if let cell = s.foundCell, loaded?.objectID == cell.id, let c = s.columnNames.firstIndex(of: cell.column),
               let range = cell.pattern.range(in: cells[c]) {
                found = TableView.FoundMark(column: c, characters: range)
            }
            tableRows.append(TableView.Row(index: index, cells: cells, flashing: flashing, marked: marked, found: found))
        }
        model.table = TableView(entityName: entity.name, rowCount: rows.count, effectiveSort: rows.effectiveSort,
                                lines: lines, rows: tableRows)
        // Room for the sort order's marks (`price ▼2`) in the headers.
        let headers = s.columnNames.map { $0 + SortMarks.position(of: s.sortKeyPath(ofColumn: $0), in: s.sortDescriptors) }
        model.table?.columns = ColumnPlacement.place(s, in: layout.table, headers: headers, cells: tableRows.map(\.cells))
        if !layout.detail.isEmpty, s.cursorRow < rows.count {
            do { model.detail = detail(of: try rows.object(at: s.cursorRow), entity: entity, state: s, counts: relatedCounts) } catch {
                model.detail = DetailView(title: "⚠ row \(s.cursorRow + 1)", fields: [.init(name: "⚠", value: failure(error), isRelationship: false)])
            }
        }
        return model
    }

    /// One cell: an attribute's value; a to-one's target by its display name (∅ for
    /// none); a to-many's count as the runner counted it (`RelatedCounts`).
    @MainActor
    static func cellText(_ object: ManagedObject, column c: Int, state s: AppState, counts: RelatedCounts) throws -> String {
        let name = s.columnNames[c]
        guard let r = s.relationshipColumn(name) else {
            return OddValueMark.tableText(try object.value(forKey: name), s.columnTypes.indices.contains(c) ? s.columnTypes[c] : nil)
        }
        if r.isToMany {
            if let reason = counts.failure(of: object.objectID, name) { return "⚠ " + reason }
            return counts.count(of: object.objectID, name).map(String.init) ?? "…"
        }
        return try s.targetName(of: object, name) ?? Renderer.tableText(.null)
    }

    @MainActor
    private static func detail(of object: ManagedObject, entity: Entity, state s: AppState, counts: RelatedCounts) -> DetailView {
        var fields: [DetailView.Field] = []
        for a in entity.attributes where !a.isTransient {
            fields.append(.init(name: a.name, value: failureText { OddValueMark.detailText(try object.value(forKey: a.name), a.type) }, isRelationship: false))
        }
        for rel in entity.relationships {
            let value: String
            if rel.isToMany {
                value = "[" + relatedCountText(counts, object.objectID, rel) + "]"
            } else {
                // ∅ only for no related record; a load that failed says why.
                value = failureText { try s.targetName(of: object, rel.name) ?? "∅" }
            }
            fields.append(.init(name: rel.name, value: value, isRelationship: true))
        }
        return DetailView(title: DisplayName.short(object), fields: fields)
    }

    /// The text `read` makes, or ⚠ and why it failed (as a failed to-many count shows).
    static func failureText(_ read: () throws -> String) -> String {
        do { return try read() } catch { return failure(error) }
    }

    static func failure(_ error: any Error) -> String { "⚠ " + ErrorText.describe(error) }

    /// "12 Product", "… Product" while not counted yet, or ⚠ and why the count failed
    /// (the mark alone told the user nothing).
    static func relatedCountText(_ counts: RelatedCounts, _ id: ObjectID, _ rel: RelationshipDescription) -> String {
        if let reason = counts.failure(of: id, rel.name) { return "⚠ " + reason }
        return (counts.count(of: id, rel.name).map(String.init) ?? "…") + " \(rel.destination)"
    }
}
