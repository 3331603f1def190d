import Foundation
import VellumStore

extension ViewModel {
    /// Reads what the frame shows from the row source: the visible rows' values and
    /// the shown record's fields; to-many relationships show the counts the runner
    /// keeps (`RelatedCounts`), so no query runs for them here.
    @MainActor
    static func build(state s: AppState, layout: Layout, fileName: String, entity: Entity?, rows: RowSource?,
                      entityCounts: [Int], relatedCounts: RelatedCounts, pendingWrites: Int, now: Date = Date()) -> ViewModel {
        var model = ViewModel(state: s, layout: layout, fileName: fileName, entityCounts: entityCounts,
                              pendingWrites: pendingWrites, table: nil, detail: nil)
        guard let entity, let rows else { return model }
        let lines = s.tableLines(height: layout.visibleRows)
        var tableRows: [TableView.Row] = []
        for case .row(let index) in lines {
            let object = try? rows.object(at: index)
            let cells = s.columnNames.indices.map { c in
                (try? object?.value(forKey: s.columnNames[c])).flatMap { $0 }
                    .map { OddValueMark.tableText($0, s.columnTypes.indices.contains(c) ? s.columnTypes[c] : nil) } ?? "⚠"
            }
            let flashing = object.map { o in (s.flashes[o.objectID].map { $0 > now }) ?? false } ?? false
            tableRows.append(TableView.Row(index: index, cells: cells, flashing: flashing))
        }
        model.table = TableView(entityName: entity.name, rowCount: rows.count, effectiveSort: rows.effectiveSort,
                                lines: lines, rows: tableRows)
        if !layout.detail.isEmpty, s.cursorRow < rows.count, let object = try? rows.object(at: s.cursorRow) {
            model.detail = detail(of: object, entity: entity, counts: relatedCounts)
        }
        return model
    }

    @MainActor
    private static func detail(of object: ManagedObject, entity: Entity, counts: RelatedCounts) -> DetailView {
        let id = object.objectID.primaryKey.map { "p\($0)" } ?? "new"
        var fields: [DetailView.Field] = []
        for a in entity.attributes where !a.isTransient {
            fields.append(.init(name: a.name, value: (try? object.value(forKey: a.name)).map { OddValueMark.detailText($0, a.type) } ?? "⚠", isRelationship: false))
        }
        for rel in entity.relationships {
            let value: String
            if rel.isToMany {
                value = "[" + relatedCountText(counts, object.objectID, rel) + "]"
            } else {
                value = (try? object.toOne(rel.name)).flatMap { $0 }.map(Renderer.displayName) ?? "∅"
            }
            fields.append(.init(name: rel.name, value: value, isRelationship: true))
        }
        return DetailView(title: "\(entity.name) \(id)", fields: fields)
    }

    /// "12 Product", "… Product" while not counted yet, or ⚠ and why the count failed
    /// (the mark alone told the user nothing).
    static func relatedCountText(_ counts: RelatedCounts, _ id: ObjectID, _ rel: RelationshipDescription) -> String {
        if let reason = counts.failure(of: id, rel.name) { return "⚠ " + reason }
        return (counts.count(of: id, rel.name).map(String.init) ?? "…") + " \(rel.destination)"
    }
}
