import Foundation

/// The rest of a first-page fetch indexed off the main thread (`completeFetchInBackground`):
/// the same keyed query runs on the controller's private reader (a `BackgroundContext`
/// with its own connection), which builds the whole index there — entries, key table,
/// sections — and hands it to the main queue, where it replaces the first page in one
/// assignment. Changes heard meanwhile are collected, not applied (the first page stays
/// as it was shown), and re-evaluated in memory against the full index once it is in:
/// whatever snapshot the reader saw, each changed object ends where its current values
/// put it, so the list is exact. A refetch on this side meanwhile (a reload, a
/// synchronous `completeFetch`) makes the reader's index stale: it is dropped.
extension ResultsController {
    struct BackgroundLoad {
        var running = false
        /// Bumped by every refetch here; an index built for an older one is dropped.
        var generation = 0
        /// Changes heard while the reader works (applied after its index is in).
        var heard = PendingChanges()
        /// A change the store could not describe object by object arrived meanwhile.
        var heardExternal = false
        var completions: [(StoreError?) -> Void] = []
    }

    /// The private reader the off-main-thread work runs on (made once; nil when its
    /// connection cannot be opened).
    func privateReader() -> BackgroundContext? {
        if externalRefetch.reader == nil {
            externalRefetch.reader = try? BackgroundContext(store: context.store, label: "vellum.results-refetch", mergePolicy: .error)
        }
        return externalRefetch.reader
    }

    /// On the main queue, after `performFetch(firstPage:)`: indexes the rest on the private
    /// reader and calls `completion` (on the main queue) once the full list is in (nil) or
    /// the load failed (the first page stays; `completeFetch()` can try again). True when
    /// the load runs (or already ran: `completion` is then called at once); false when it
    /// cannot run off the main thread (not on the main queue, no reader), and the caller
    /// completes in place.
    @discardableResult
    public func completeFetchInBackground(_ completion: @escaping (StoreError?) -> Void) -> Bool {
        guard fetched, partialCount != nil else { completion(nil); return true }
        if backgroundLoad.running {
            backgroundLoad.completions.append(completion)
            return true
        }
        guard Self.isOnMainQueue, let reader = privateReader() else { return false }
        backgroundLoad.running = true
        backgroundLoad.completions.append(completion)
        startBackgroundLoad(reader)
        return true
    }

    /// Whether a background load is indexing the rest now.
    public var isLoadingInBackground: Bool { backgroundLoad.running }

    private func startBackgroundLoad(_ reader: BackgroundContext) {
        let request = fetchRequest
        let sectioned = sectionKeyPath != nil
        let generation = backgroundLoad.generation
        let me = Handoff(value: Weak(self))
        reader.perform({ ctx in
            Handoff(value: try Self.buildIndex(ctx, request, sectioned: sectioned))
        }) { outcome in
            DispatchQueue.main.async { me.value.object?.finishBackgroundLoad(outcome, generation: generation) }
        }
    }

    /// The full index of `request` as `refetch` builds it (no pending objects: a first page
    /// is only fetched without them).
    static func buildIndex(_ context: ManagedObjectContext, _ request: FetchRequest, sectioned: Bool, limit: Int? = nil) throws -> ResultsIndex {
        var fresh = ResultsIndex(descriptors: request.sortDescriptors, sectioned: sectioned)
        try context.forEachKeyedID(request, limit: limit) { id, keys in
            fresh.entries.append(ResultsIndex.Entry(id: id, keys: keys))
        }
        // The key table is filled once its size is known: one allocation, no regrowth.
        fresh.reserveKeys(fresh.entries.count)
        for e in fresh.entries { fresh.setKeys(e.keys, for: e.id) }
        fresh.rebuildSections()
        return fresh
    }

    private func finishBackgroundLoad(_ outcome: Result<Handoff<ResultsIndex>, Error>, generation: Int) {
        var failure: StoreError?
        switch outcome {
        case .success(let built) where generation == backgroundLoad.generation && fetched && partialCount != nil:
            index = built.value
            partialCount = nil
            temporaryIDs = []
        case .success:
            // A refetch here replaced the list meanwhile, so this index is stale. A list that
            // is a first page again is loaded again; what was heard waits for that load.
            if fetched, partialCount != nil, let reader = privateReader() {
                startBackgroundLoad(reader)
                return
            }
        case .failure(let error):
            failure = StoreError(nesting: error)
        }
        backgroundLoad.running = false
        let completions = backgroundLoad.completions
        let heard = backgroundLoad.heard
        let external = backgroundLoad.heardExternal
        backgroundLoad.completions = []
        backgroundLoad.heard = PendingChanges()
        backgroundLoad.heardExternal = false
        if partialCount == nil {
            // What changed while the reader worked, as one change set against the full list
            // (re-evaluating an object a refetch here already saw changes nothing).
            pending.changed.formUnion(heard.changed)
            pending.gone.subtract(heard.changed.subtracting(heard.gone))
            pending.gone.formUnion(heard.gone)
            if external {
                var change = ObjectsDidChange()
                change.storeChangedExternally = true
                contextDidChange(change)
            } else {
                applyPendingChanges()
            }
        } else if !heard.isEmpty || external {
            reload()   // the load failed: a first page that changed is refetched whole, as before
        }
        for c in completions { c(failure) }
    }

    /// While the reader indexes the rest of a first page, a change is kept for afterwards
    /// (true), unless it resets everything.
    func heardDuringBackgroundLoad(_ event: ObjectsDidChange) -> Bool {
        guard backgroundLoad.running, partialCount != nil, !event.invalidatedAll else { return false }
        if event.storeChangedExternally { backgroundLoad.heardExternal = true }
        backgroundLoad.heard.add(event)
        return true
    }
}
