import VellumStore

/// The list's filter and sort: only a query that validates and runs becomes active.
extension EffectRunner {
    func applyFilter(_ text: String) { apply(filter: text, sort: state.sort, thenBy: state.thenSort, what: "filter") }
    func applySort(_ sort: VellumStore.QuerySortDescriptor?) { apply(filter: state.filterText, sort: sort, what: "sort") }

    /// Runs the list with `filter` and `sort` off the main thread (`runInBackground`). If
    /// either does not fit the model or the query fails, nothing changes (the old filter and
    /// sort stay active and shown): the `/` or `:` prompt stays open with the reason, as for
    /// a syntax error, or the status says it.
    func apply(filter: String, sort: VellumStore.QuerySortDescriptor?, thenBy: [VellumStore.QuerySortDescriptor] = [], what: String) {
        guard let source = rows as? ResultsRowSource, let entity else { return refuse(what, "no list is open") }
        let predicate: VellumStore.QueryPredicate?
        do {
            predicate = filter.isEmpty ? nil : try VellumStore.QueryPredicate(format: filter)
            try predicate?.validate(entity: entity, model: container.model)
            for s in [sort].compactMap({ $0 }) + thenBy { try s.validate(entity: entity, model: container.model) }
        } catch {
            return refuse(what, describeQuery(error))
        }
        let plan = source.reloadPlan(predicate: predicate, sortDescriptors: (sort.map { [$0] } ?? []) + thenBy,
                                     sectionKeyPath: source.sectionKeyPath)
        reread(source, plan, doing: what == "filter" ? "filtering" : "sorting") { [weak self] outcome in
            guard let self else { return }
            switch outcome {
            case .done:
                // The selected record keeps the cursor if it is still listed; else the list starts at the top.
                send(.result(.queryApplied(filter: filter, sort: sort, atTop: selectedID.flatMap({ source.index(of: $0) }) == nil, thenBy: thenBy)))
                followSelection()
            case .cancelled: send(.result(.queryRefused(Self.cancelledReason, what: what, cancelled: true)))
            case .failed(let error): refuse(what, describeQuery(error))
            }
        }
    }

    private func refuse(_ what: String, _ reason: String) {
        send(.result(.queryRefused(reason, what: what, cancelled: false)))
    }

    /// Reads `plan` for `source` on a reader (`runInBackground`) and, once read, makes it the
    /// list shown (with the changes heard meanwhile on top); `finish` hears how it ended
    /// (not at all when another list was opened meanwhile).
    func reread(_ source: ResultsRowSource, _ plan: ResultsRowSource.ReloadPlan, doing: String,
                finish: @escaping @MainActor (BackgroundOutcome<Void>) -> Void) {
        runInBackground(doing, { ctx in try plan.read(ctx) }) { [weak self] outcome in
            guard let self else { return }
            switch outcome {
            case .done(let read):
                guard rows === source else { return }
                do { try source.install(plan, read, heard: backgroundWorkHeard) } catch { return finish(.failed(error)) }
                finish(.done(()))
            case .cancelled: finish(.cancelled)
            case .failed(let error): finish(.failed(error))
            }
        }
    }

    static let cancelledReason = "cancelled"

    /// A predicate error on one line (the prompt shows the caret); anything else in words.
    func describeQuery(_ error: any Error) -> String {
        ((error as? StoreError)?.queryError ?? error as? QueryError)?.oneLine ?? describe(error)
    }
}
