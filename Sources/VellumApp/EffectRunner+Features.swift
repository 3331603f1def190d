import Foundation
import VellumStore
import VellumTerminal

/// Column summary, text search, grouping, export and duplication.
extension EffectRunner {
    /// The request behind the current list: entity, filter (and base), sort.
    func currentRequest() -> FetchRequest? {
        guard let source = rows as? ResultsRowSource else { return nil }
        var request = source.controller.fetchRequest
        request.fetchBatchSize = 0
        return request
    }

    // MARK: Column summary

    func openSummary() {
        guard let attribute = currentAttribute(), let request = currentRequest() else { return }
        do {
            let summary = try context.summarize(request, attribute: attribute.name, limit: 200)
            send(.result(.summaryOpened(SummaryOverlay(summary, type: attribute.type))))
        } catch {
            send(.status("summary: \(describe(error))", error: true))
        }
    }

    // MARK: Text search

    func search(_ text: String, forward: Bool) {
        guard let source = rows as? ResultsRowSource, let entity else { return }
        let strings = entity.attributes.filter { !$0.isTransient && $0.type == .string }.map(\.name)
        guard !strings.isEmpty else { send(.status("\(entity.name) has no text fields to search", error: true)); return }
        var request = source.controller.fetchRequest
        let match = Reducer.searchPredicate(text, attributes: strings)
        request.predicate = request.predicate.map { .and($0, match) } ?? match
        request.sortDescriptors = []
        request.fetchBatchSize = 0
        do {
            let ids = try context.fetchObjectIDs(request)
            let matches = ids.compactMap { source.index(of: $0) }.sorted()
            guard let next = Reducer.nextMatch(matches, after: state.cursorRow, forward: forward) else {
                send(.status("not found: \(text)", error: true))
                return
            }
            send(.result(.found(row: next.row)))
            syncSelection()
            let n = (matches.firstIndex(of: next.row) ?? 0) + 1
            send(.status("\(text): match \(n) of \(matches.count)" + (next.wrapped ? " (wrapped)" : "")))
        } catch {
            send(.status("find: \(describe(error))", error: true))
        }
    }

    // MARK: Grouping

    func applyGroup() {
        guard let source = rows as? ResultsRowSource else { return }
        let old = source.sectionKeyPath
        source.sectionKeyPath = state.groupKey
        do {
            try source.reload()
            send(.status(state.groupKey.map { "grouped by \($0)" } ?? "ungrouped"))
        } catch {
            source.sectionKeyPath = old
            send(.result(.groupRestored(old)))
            try? source.reload()
            send(.status("group: \(describe(error))", error: true))
        }
        followSelection()
    }

    // MARK: Export

    /// Writes the current list through `SafeFileWriter`: never over the open store or
    /// another database, an existing file only after a yes, never partially.
    func export(format: String, path: String, replacing: Bool) {
        guard let request = currentRequest(), let entity else { return }
        let writer = SafeFileWriter(protecting: [container.store.path])
        do {
            if !replacing, try writer.check(path) == .existing {
                send(.result(.exportNeedsConfirmation(PendingExport(format: format, path: path))))
                return
            }
            let keys = entity.attributes.filter { !$0.isTransient }.map(\.name)
            let objects = try context.fetch(request)
            let values = try objects.map { o in try keys.map { try o.value(forKey: $0) } }
            let text = format == "json" ? ExportText.json(keys: keys, rows: values) : ExportText.csv(header: keys, rows: values)
            try writer.write(text, to: path, replacing: replacing)
            send(.status("exported \(objects.count) row\(objects.count == 1 ? "" : "s") to \(path)"))
        } catch {
            send(.status("export failed: \(describe(error))", error: true))
        }
    }

    // MARK: Duplicate

    func duplicateRecord() {
        guard let object = currentObject(), let entity = container.model.entity(named: object.objectID.entityName) else { return }
        let keys = entity.attributes.filter { !$0.isTransient }.map(\.name)
        let values: [(String, Value)]
        do { values = try keys.map { ($0, try object.value(forKey: $0)) } } catch {
            send(.status("duplicate: \(describe(error))", error: true))
            return
        }
        let name = entity.name
        write("duplicate \(name)", success: "duplicated the \(name)", { ctx in
            let copy = try ctx.insert(name)
            for (key, value) in values { try copy.setValue(value, forKey: key) }
            return copy.objectID
        }, then: { [weak self] id in
            guard let self else { return }
            selectedID = container.store.permanentID(for: id) ?? id
        }, failed: { [weak self] error in
            guard let self else { return }
            send(.status("duplicate failed: \(describe(error))", error: true))
        })
    }
}
