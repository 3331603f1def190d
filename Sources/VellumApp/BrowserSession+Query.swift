import VellumStore

/// The list's filter and sort: only a query that validates and runs becomes active.
extension BrowserSession {
    func applyFilter(_ text: String) { apply(filter: text, sort: state.sort, what: "filter") }
    func applySort(_ sort: VellumStore.SortDescriptor?) { apply(filter: state.filterText, sort: sort, what: "sort") }

    /// Runs the list with `filter` and `sort`. If either does not fit the model or the
    /// query fails, nothing changes (the old filter and sort stay active and shown):
    /// the `/` or `:` prompt stays open with the reason, as for a syntax error, or the status says it.
    private func apply(filter: String, sort: VellumStore.SortDescriptor?, what: String) {
        let prompt = state.mode == .filter || state.mode == .command
        if let reason = requery(filter: filter, sort: sort) {
            if prompt { state.promptError = "\(what): \(reason)" } else { state.setStatus("\(what): \(reason)", error: true) }
            return
        }
        if prompt { state.mode = .browse }
        state.filterError = nil
        state.promptError = nil
    }

    /// Nil when the list now shows `filter` and `sort`, else why not (the list is as before).
    private func requery(filter: String, sort: VellumStore.SortDescriptor?) -> String? {
        guard let source = rows as? ResultsRowSource, let entity else { return "no list is open" }
        let predicate: VellumStore.Predicate?
        do {
            predicate = filter.isEmpty ? nil : try VellumStore.Predicate(format: filter)
            try predicate?.validate(entity: entity, model: container.model)
            try sort?.validate(entity: entity, model: container.model)
        } catch {
            return describe(error)
        }
        let old = (source.predicate, source.sortDescriptors)
        source.predicate = predicate
        source.sortDescriptors = sort.map { [$0] } ?? []
        do {
            try source.reload()
        } catch {
            (source.predicate, source.sortDescriptors) = old
            try? source.reload()
            followSelection()
            return describe(error)
        }
        state.filterText = filter
        state.sort = sort
        // The selected record keeps the cursor if it is still listed; else the list starts at the top.
        if selectedID.flatMap({ source.index(of: $0) }) == nil { state.cursorRow = 0; state.scrollOffset = 0 }
        followSelection()
        return nil
    }
}
