import VellumStore

/// The list's filter and sort: only a query that validates and runs becomes active.
extension EffectRunner {
    func applyFilter(_ text: String) { apply(filter: text, sort: state.sort, thenBy: state.thenSort, what: "filter") }
    func applySort(_ sort: VellumStore.QuerySortDescriptor?) { apply(filter: state.filterText, sort: sort, what: "sort") }

    /// Runs the list with `filter` and `sort`. If either does not fit the model or the
    /// query fails, nothing changes (the old filter and sort stay active and shown):
    /// the `/` or `:` prompt stays open with the reason, as for a syntax error, or the status says it.
    func apply(filter: String, sort: VellumStore.QuerySortDescriptor?, thenBy: [VellumStore.QuerySortDescriptor] = [], what: String) {
        if let reason = requery(filter: filter, sort: sort, thenBy: thenBy) {
            send(.result(.queryRefused(reason, what: what, cancelled: reason == Self.cancelledReason)))
        }
    }

    /// Nil when the list now shows `filter` and `sort`, else why not (the list is as before).
    func requery(filter: String, sort: VellumStore.QuerySortDescriptor?, thenBy: [VellumStore.QuerySortDescriptor] = []) -> String? {
        guard let source = rows as? ResultsRowSource, let entity else { return "no list is open" }
        let predicate: VellumStore.QueryPredicate?
        do {
            predicate = filter.isEmpty ? nil : try VellumStore.QueryPredicate(format: filter)
            try predicate?.validate(entity: entity, model: container.model)
            for s in [sort].compactMap({ $0 }) + thenBy { try s.validate(entity: entity, model: container.model) }
        } catch {
            return describeQuery(error)
        }
        let old = (source.predicate, source.sortDescriptors)
        source.predicate = predicate
        source.sortDescriptors = (sort.map { [$0] } ?? []) + thenBy
        do {
            try runCancellably { try source.reload() }
        } catch {
            let byUser = cancelKeys?.stop() ?? false
            (source.predicate, source.sortDescriptors) = old
            try? source.reload()
            followSelection()
            return byUser ? Self.cancelledReason : describeQuery(error)
        }
        // The selected record keeps the cursor if it is still listed; else the list starts at the top.
        send(.result(.queryApplied(filter: filter, sort: sort, atTop: selectedID.flatMap({ source.index(of: $0) }) == nil, thenBy: thenBy)))
        followSelection()
        return nil
    }

    static let cancelledReason = "cancelled"

    /// Runs a query with Esc/Ctrl-C able to stop it: the event loop's key watcher asks the
    /// store to interrupt the query (the UI never touches SQL); the query then throws.
    /// `doing` names the work in the status bar while it runs ("filtering").
    func runCancellably<T>(_ doing: String = "filtering", interrupting: QueryInterrupter? = nil, _ query: () throws -> T) throws -> T {
        guard let watcher = cancelKeys else { return try query() }
        // While it runs the list shows as it is, with the status saying how to stop it;
        // the prompt comes back afterwards if the query is refused.
        let mode = state.mode
        defer { send(.result(.queryEnded(mode))) }
        send(.result(doing == "filtering" ? .queryStarted : .workStarted(doing)))
        drawNow?()
        watcher.start(interrupting: interrupting ?? context.queryInterrupter)
        let value = try query()
        _ = watcher.stop()   // a key pressed as the query finished cancels nothing
        return value
    }

    /// A predicate error on one line (the prompt shows the caret); anything else in words.
    func describeQuery(_ error: any Error) -> String {
        ((error as? StoreError)?.queryError ?? error as? QueryError)?.oneLine ?? describe(error)
    }
}
