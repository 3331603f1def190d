import Foundation
import VellumStore
import VellumTerminal

/// Column summary, text search, grouping and export: each reads on a reader of its own,
/// off the main thread (`runInBackground`); Esc or Ctrl-C stops it.
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
        if let r = state.cursorRelationshipColumn {
            let by = state.sortKeyPath(ofColumn: r.name)?.joined(separator: ".") ?? r.name
            send(.status("summary: \(r.name) is a relationship; sort by it (\(by)) or filter with / \(r.isToMany ? "\(r.name).@count > 0" : "\(by) == …")", error: true))
            return
        }
        guard let attribute = currentAttribute(), let request = currentRequest() else { return }
        let name = attribute.name, type = attribute.type
        runInBackground("summarizing", { ctx in try ctx.summarize(request, attribute: name, limit: 200) }) { [weak self] outcome in
            guard let self else { return }
            switch outcome {
            case .done(let summary): send(.result(.summaryOpened(SummaryOverlay(summary, type: type))))
            case .cancelled: send(.status("summary cancelled", error: true))
            case .failed(let error): send(.status("summary: \(describe(error))", error: true))
            }
        }
    }

    // MARK: Text search

    func search(_ pattern: FindPattern, forward: Bool) {
        guard let source = rows as? ResultsRowSource, let entity else { return }
        let strings = entity.attributes.filter { !$0.isTransient && $0.type == .string }.map(\.name)
        guard !strings.isEmpty else { send(.status("\(entity.name) has no text fields to search", error: true)); return }
        var request = source.controller.fetchRequest
        let match = pattern.predicate(attributes: strings)
        request.predicate = request.predicate.map { .and($0, match) } ?? match
        request.sortDescriptors = []
        request.fetchBatchSize = 0
        let find = request
        runInBackground("finding", needsWholeList: true, { ctx in try ctx.fetchObjectIDs(find) }) { [weak self] outcome in
            guard let self, rows === source else { return }   // another list opened meanwhile
            switch outcome {
            case .cancelled: send(.status("find cancelled; the cursor stays", error: true))
            case .failed(let error): send(.status("find: \(describe(error))", error: true))
            case .done(let ids):
                // The matches' rows are found among every row: a list still indexing past its
                // first page off the main thread is waited for, not indexed here.
                source.whenIndexed { [weak self] in
                    guard let self, rows === source else { return }
                    found(ids, pattern, forward: forward, among: strings, in: source)
                    redraw()
                }
            }
        }
    }

    /// The find's matches, `ids`, put the cursor on the next one from the cursor's row.
    private func found(_ ids: [ObjectID], _ pattern: FindPattern, forward: Bool, among strings: [String], in source: ResultsRowSource) {
        let text = pattern.text
        let matches = ids.compactMap { try? source.indexAmongAll(of: $0) }.sorted()
        guard let next = Reducer.nextMatch(matches, after: state.cursorRow, forward: forward) else {
            send(.status("not found: \(text)", error: true))
            return
        }
        let cell = foundCell(at: next.row, pattern, among: strings, in: source)
        send(.result(.found(row: next.row, column: cell.column, cell: cell.found)))
        syncSelection()
        let n = (matches.firstIndex(of: next.row) ?? 0) + 1
        let place = cell.found == nil ? cell.hidden.map { " (in \($0), hidden)" } ?? "" : ""
        send(.status("\(text): match \(n) of \(matches.count)" + (next.wrapped ? " (wrapped)" : "") + place))
    }

    /// The shown column of the found row whose value matches, first from the left (the
    /// cell to put the cursor on and mark), or the hidden attribute that matched instead.
    private func foundCell(at row: Int, _ pattern: FindPattern, among strings: [String],
                           in source: ResultsRowSource) -> (column: Int?, found: FoundCell?, hidden: String?) {
        guard let object = try? source.object(at: row) else { return (nil, nil, nil) }
        func matches(_ key: String) -> Bool {
            guard case .string(let value)? = try? object.value(forKey: key) else { return false }
            return pattern.range(in: value) != nil
        }
        if let column = state.columnNames.indices.first(where: { strings.contains(state.columnNames[$0]) && matches(state.columnNames[$0]) }) {
            return (column, FoundCell(id: object.objectID, column: state.columnNames[column], pattern: pattern), nil)
        }
        return (nil, nil, strings.first(where: matches))
    }

    // MARK: Grouping

    func applyGroup(previous: SectionAggregate?) {
        guard let source = rows as? ResultsRowSource else { return }
        let old = source.sectionKeyPath
        let plan = source.reloadPlan(predicate: source.predicate, sortDescriptors: source.sortDescriptors, sectionKeyPath: state.groupKey)
        reread(source, plan, doing: "grouping") { [weak self] outcome in
            guard let self else { return }
            switch outcome {
            case .done:
                send(.status(state.groupKey.map { "grouped by \($0)" + (state.sectionAggregate.map { " with \($0.label)" } ?? "") } ?? "ungrouped"))
                refreshSectionFigures()
            case .cancelled:
                send(.result(.groupRestored(old, previous)))
                send(.status("group cancelled; the list is unchanged", error: true))
            case .failed(let error):
                send(.result(.groupRestored(old, previous)))
                send(.status("group: \(describe(error))", error: true))
            }
            followSelection()
        }
    }

    // MARK: Export

    /// Writes the current list through `SafeFileWriter`: never over the open store or
    /// another database, an existing file only after a yes, never partially. Rows
    /// stream to the file a batch at a time from the export's reader, off the main thread
    /// (memory stays flat, and the view context loads none of them); Esc stops its SQL.
    func export(format: String, path: String, replacing: Bool) {
        guard let request = currentRequest(), let entity else { return }
        let protected = [container.store.path]
        do {
            if !replacing, try SafeFileWriter(protecting: protected).check(path) == .existing {
                send(.result(.exportNeedsConfirmation(PendingExport(format: format, path: path))))
                return
            }
        } catch {
            return send(.status("export failed: \(describe(error))", error: true))
        }
        let keys = entity.attributes.filter { !$0.isTransient }.map(\.name)
        let batchSize = Self.exportBatchSize
        runInBackground("exporting", reportsWhenStopped: true, { reader in
            var output = ExportWriter(format: format == "json" ? .json : .csv, header: keys)
            // Each entity's indices of the keys, found once: by name, every value of a
            // million rows compared strings (a tenth of the export).
            var indices: [ObjectIdentifier: [Int]] = [:]
            func row(_ o: ManagedObject) throws -> [Value] {
                let id = ObjectIdentifier(o.entity)
                let found: [Int]
                if let known = indices[id] { found = known } else {
                    found = try keys.map { k in
                        guard let i = o.entity.attributeIndex(named: k) else { throw StoreError.unknownKey(entity: o.entity.name, key: k) }
                        return i
                    }
                    indices[id] = found
                }
                return try found.map { try o.value(at: $0) }
            }
            try SafeFileWriter(protecting: protected).write(to: path, replacing: replacing) { file in
                try reader.forEachBatch(request, batchSize: batchSize) { objects in
                    try file.write(output.text(for: objects.map(row)))
                }
                try file.write(output.ending())
            }
            return output.count
        }) { [weak self] outcome in
            switch outcome {
            case .done(let count): self?.send(.status("exported \(count) row\(count == 1 ? "" : "s") to \(path)"))
            case .cancelled: self?.send(.status("export cancelled; nothing written", error: true))
            case .failed(let error): self?.send(.status("export failed: \(ErrorText.describe(error))", error: true))
            }
        }
    }

    /// Rows read and written per step of an export (the context forgets each batch).
    static let exportBatchSize = 1000
}
