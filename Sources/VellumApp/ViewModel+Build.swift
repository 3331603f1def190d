import Foundation
import VellumStore

extension ViewModel {
    /// Reads what the frame shows from the store: the visible rows' values, the
    /// shown record's fields, and to-many relationships as counts (a COUNT query;
    /// the related objects are never loaded to count them).
    @MainActor
    static func build(state s: AppState, layout: Layout, fileName: String, entity: Entity?, rows: RowSource?,
                      entityCounts: [Int], pendingWrites: Int, now: Date = Date()) -> ViewModel {
        var model = ViewModel(state: s, layout: layout, fileName: fileName, entityCounts: entityCounts,
                              pendingWrites: pendingWrites, table: nil, detail: nil)
        guard let entity, let rows else { return model }
        let lines = s.tableLines(height: layout.visibleRows)
        var tableRows: [TableView.Row] = []
        for case .row(let index) in lines {
            let object = try? rows.object(at: index)
            let cells = s.columnNames.map { key in (try? object?.value(forKey: key)).flatMap { $0 }.map(Renderer.tableText) ?? "⚠" }
            let flashing = object.map { o in (s.flashes[o.objectID].map { $0 > now }) ?? false } ?? false
            tableRows.append(TableView.Row(index: index, cells: cells, flashing: flashing))
        }
        model.table = TableView(entityName: entity.name, rowCount: rows.count, effectiveSort: rows.effectiveSort,
                                lines: lines, rows: tableRows)
        if !layout.detail.isEmpty, s.cursorRow < rows.count, let object = try? rows.object(at: s.cursorRow) {
            model.detail = detail(of: object, entity: entity)
        }
        return model
    }

    @MainActor
    private static func detail(of object: ManagedObject, entity: Entity) -> DetailView {
        let id = object.objectID.primaryKey.map { "p\($0)" } ?? "new"
        var fields: [DetailView.Field] = []
        for a in entity.attributes where !a.isTransient {
            fields.append(.init(name: a.name, value: (try? object.value(forKey: a.name)).map(Renderer.cellText) ?? "⚠", isRelationship: false))
        }
        for rel in entity.relationships {
            let value: String
            if rel.isToMany {
                value = "[" + (relatedCount(object, rel).map { "\($0) \(rel.destination)" } ?? "⚠") + "]"
            } else {
                value = (try? object.toOne(rel.name)).flatMap { $0 }.map(Renderer.displayName) ?? "∅"
            }
            fields.append(.init(name: rel.name, value: value, isRelationship: true))
        }
        return DetailView(title: "\(entity.name) \(id)", fields: fields)
    }

    /// How many objects a to-many relationship holds, by a COUNT over its inverse
    /// (the same membership a followed relationship lists).
    @MainActor
    static func relatedCount(_ object: ManagedObject, _ rel: RelationshipDescription) -> Int? {
        guard let context = object.context else { return nil }
        guard object.objectID.primaryKey != nil, !object.hasChanges else {
            // Unsaved or changed here: the context holds the answer.
            return try? object.toMany(rel.name).count
        }
        let predicate = EffectRunner.membership(of: object, in: rel)
        return try? context.count(FetchRequest(entityName: rel.destination, predicate: predicate))
    }
}
