import Foundation
import Synchronization

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
        /// Stopped for other work (`pauseBackgroundLoad`): what it heard and who waits for
        /// it are kept until `completeFetchInBackground` starts it again.
        var paused = false
        /// Asked to run again while the stopped load was still ending.
        var resumes = false
        /// Tells the running load's reader to stop before it starts its statement (an
        /// interrupt reaches only a statement already running).
        var stop = LoadStop()
    }

    /// Set from the main queue, read on the reader's.
    final class LoadStop: Sendable {
        let requested = Atomic<Bool>(false)
    }

    /// Why a load stopped before it read: paused.
    struct LoadPaused: Error {}

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
            if backgroundLoad.paused { backgroundLoad.resumes = true }
            return true
        }
        guard Self.isOnMainQueue, let reader = privateReader() else { return false }
        backgroundLoad.paused = false
        backgroundLoad.resumes = false
        backgroundLoad.running = true
        backgroundLoad.completions.append(completion)
        startBackgroundLoad(reader)
        return true
    }

    /// Whether a background load is indexing the rest now.
    public var isLoadingInBackground: Bool { backgroundLoad.running }

    /// Stops indexing the rest off the main thread for now, so that work the user waits
    /// for (a summary, another list's first page) has the processor: the load's statement
    /// is interrupted, and `completeFetchInBackground` later starts it again from the
    /// beginning. Changes heard meanwhile are kept for it, as while it runs; the first page
    /// stays as shown. Nothing happens when no load runs (a load that ends before the
    /// interrupt reaches it is installed as usual).
    public func pauseBackgroundLoad() {
        guard backgroundLoad.running, !backgroundLoad.paused, !externalRefetch.running else { return }
        backgroundLoad.paused = true
        backgroundLoad.resumes = false
        backgroundLoad.stop.requested.store(true, ordering: .relaxed)
        externalRefetch.reader?.queryInterrupter.interrupt()
    }

    private func startBackgroundLoad(_ reader: BackgroundContext) {
        let request = fetchRequest
        let sectioned = sectionKeyPath != nil
        let generation = backgroundLoad.generation
        let me = Handoff(value: Weak(self))
        let stop = LoadStop()
        backgroundLoad.stop = stop
        reader.perform({ ctx in
            if stop.requested.load(ordering: .relaxed) { throw LoadPaused() }
            return Handoff(value: try Self.buildIndex(ctx, request, sectioned: sectioned))
        }) { outcome in
            DispatchQueue.main.async { me.value.object?.finishBackgroundLoad(outcome, generation: generation) }
        }
    }

    /// The full index of `request` as `refetch` builds it (no pending objects: a first page
    /// is only fetched without them).
    static func buildIndex(_ context: ManagedObjectContext, _ request: FetchRequest, sectioned: Bool, limit: Int? = nil,
                           firstKeyUpTo: Value? = nil) throws -> ResultsIndex {
        var fresh = ResultsIndex(descriptors: request.sortDescriptors, sectioned: sectioned)
        try context.forEachKeyedID(request, limit: limit, firstKeyUpTo: firstKeyUpTo) { id, keys in
            fresh.append(id, keys: keys)
        }
        fresh.rebuildSections()
        return fresh
    }

    private func finishBackgroundLoad(_ outcome: Result<Handoff<ResultsIndex>, Error>, generation: Int) {
        let installable = if case .success = outcome { generation == backgroundLoad.generation && fetched && partialCount != nil } else { false }
        if backgroundLoad.paused, !installable, fetched, partialCount != nil {
            // Stopped for other work: waits, with its completions and what it heard.
            backgroundLoad.running = false
            if backgroundLoad.resumes, fetched, partialCount != nil, let reader = privateReader() {
                backgroundLoad.paused = false
                backgroundLoad.resumes = false
                backgroundLoad.running = true
                startBackgroundLoad(reader)
            }
            return
        }
        backgroundLoad.paused = false
        backgroundLoad.resumes = false
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
            // A list refetched meanwhile is complete: the load's end is no failure of it.
            failure = partialCount == nil && fetched ? nil : StoreError(nesting: error)
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

    /// A paused load that will not run again (the list was refetched or discarded meanwhile):
    /// whoever waited for it is told it is over.
    func endPausedLoad() {
        guard backgroundLoad.paused, !backgroundLoad.running else { return }
        let completions = backgroundLoad.completions
        backgroundLoad = BackgroundLoad(generation: backgroundLoad.generation)
        for c in completions { c(nil) }
    }

    /// While the reader indexes the rest of a first page, a change is kept for afterwards
    /// (true), unless it resets everything.
    func heardDuringBackgroundLoad(_ event: ObjectsDidChange) -> Bool {
        guard backgroundLoad.running || backgroundLoad.paused, partialCount != nil, !event.invalidatedAll else { return false }
        if event.storeChangedExternally { backgroundLoad.heardExternal = true }
        backgroundLoad.heard.add(event)
        return true
    }
}
