import VellumStore

/// A `RowSource` over a `ResultsController`: the controller keeps the ordered
/// IDs current incrementally (on the view context's objectsDidChange); rows
/// load in batches of `batchSize` only when the table reads them.
@MainActor
public final class ResultsRowSource: RowSource {
    public let context: ManagedObjectContext
    public let entityName: String
    public var predicate: VellumStore.QueryPredicate?
    public var sortDescriptors: [VellumStore.QuerySortDescriptor]
    /// Extra restriction that the user's filter cannot remove (relationship navigation).
    public var basePredicate: VellumStore.QueryPredicate?
    public let batchSize: Int
    /// `:group KEY`: rows come in sections by this key path (the first sort key).
    public var sectionKeyPath: String?
    /// First row index of each section (grouped), computed when first needed.
    var cachedStarts: [Int]?
    public private(set) var controller: ResultsController
    /// Inserted or moved IDs of the last change set (for flashing).
    public private(set) var lastInserted: Set<ObjectID> = []
    /// Called when the controller changed the list by itself — its refetch after
    /// another writer's commit, finished off the main thread — with the IDs it
    /// inserted, moved or updated (to flash). See ResultsRowSource+Delegate.
    public var onListChanged: ((Set<ObjectID>) -> Void)?
    /// IDs of the change set being delivered (ResultsRowSource+Delegate).
    var delivering: Set<ObjectID> = []
    /// Called on the main queue once the rows past the first page are indexed off the
    /// main thread (`completeIndexing`), with the error if that failed.
    public var onIndexed: ((StoreError?) -> Void)?
    /// The last background indexing failed: the next one runs in place (and reports why).
    var backgroundIndexingFailed = false
    /// The entity's count the caller just took, for the first load of an unfiltered list.
    var knownCount: Int?

    public init(context: ManagedObjectContext, entityName: String,
                predicate: VellumStore.QueryPredicate? = nil, sortDescriptors: [VellumStore.QuerySortDescriptor] = [],
                basePredicate: VellumStore.QueryPredicate? = nil, batchSize: Int = 100, knownCount: Int? = nil) throws {
        self.knownCount = knownCount
        self.context = context
        self.entityName = entityName
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
        self.basePredicate = basePredicate
        self.batchSize = batchSize
        controller = ResultsController(fetchRequest: FetchRequest(entityName: entityName), context: context)
        try reload()
    }

    /// A meaningful default order: `name`, `title`, or the first plain attribute.
    public static func defaultSort(for entity: Entity?) -> VellumStore.QuerySortDescriptor? {
        guard let entity else { return nil }
        let plain = entity.attributes.filter { !$0.isTransient && ![.binary, .transformable, .undefined].contains($0.type) }
        let preferred = ["name", "title"].compactMap { key in plain.first { $0.name == key } }.first ?? plain.first
        return preferred.map { VellumStore.QuerySortDescriptor($0.name) }
    }

    public var effectiveSort: VellumStore.QuerySortDescriptor? { controller.fetchRequest.sortDescriptors.first }

    public var count: Int { controller.fetchedObjectCount }
    /// Every row's ID: the list is indexed in full first (marking all rows needs all of them).
    public var rowIDs: [ObjectID] {
        if !controller.isComplete { try? controller.completeFetch() }
        return controller.fetchedObjectIDs
    }

    public func id(at index: Int) -> ObjectID? {
        try? controller.objectID(at: ResultsIndexPath(item: index, section: 0))
    }

    public func object(at index: Int) throws -> ManagedObject {
        try controller.object(at: indexPath(forRow: index))
    }

    /// The row of `id` among every row: a list still indexing past its first page is
    /// indexed in full first (in place). For a find, a jump or a yank, which must know.
    public func indexAmongAll(of id: ObjectID) throws -> Int? {
        if !controller.isComplete, index(of: id) == nil {
            try controller.completeFetch()
            cachedStarts = nil
        }
        return index(of: id)
    }

    /// The row of `id`, nil when it is not listed — or not indexed yet (past the first
    /// page of a list still indexing: `indexAmongAll`).
    public func index(of id: ObjectID) -> Int? {
        guard let p = controller.indexPath(for: id) else { return nil }
        guard sectionKeyPath != nil else { return p.item }
        let starts = sectionStarts
        return starts.indices.contains(p.section) ? starts[p.section] + p.item : nil
    }

    /// First row index of each section (one section when ungrouped).
    public var sectionStarts: [Int] {
        if let cachedStarts { return cachedStarts }
        var starts: [Int] = []
        var n = 0
        for i in 0..<controller.numberOfSections {
            starts.append(n)
            n += controller.numberOfObjects(inSection: i)
        }
        cachedStarts = starts
        return starts
    }

    /// Section names by starting row, nil names shown as ∅ (the table adds the counts).
    public func sectionHeaders() -> [Int: String] {
        guard sectionKeyPath != nil else { return [:] }
        let starts = sectionStarts
        var headers: [Int: String] = [:]
        for (i, section) in controller.sectionNamesAndCounts.enumerated() where starts.indices.contains(i) {
            headers[starts[i]] = section.name.map { $0.isEmpty ? "\"\"" : $0 } ?? "∅"
        }
        return headers
    }

    private func indexPath(forRow index: Int) -> ResultsIndexPath {
        guard sectionKeyPath != nil else { return ResultsIndexPath(item: index, section: 0) }
        let starts = sectionStarts
        // Last section starting at or before `index` (binary search).
        var lo = 0, hi = starts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if starts[mid] <= index { lo = mid } else { hi = mid - 1 }
        }
        return ResultsIndexPath(item: index - (starts.isEmpty ? 0 : starts[lo]), section: lo)
    }

    /// Rows read before the first screen; the rest are indexed right after it is drawn.
    static let firstPageSize = 256

    /// Lists longer than this are indexed past their first page off the main thread
    /// (`completeIndexing`); shorter ones at once, in place.
    static let backgroundIndexingLimit = 50_000

    /// Lists up to this size get a readable default order (`name`/`title`); larger
    /// ones stay in storage order, which needs no sort and no sort keys in memory.
    static let defaultSortLimit = 50_000

    /// What a reload fetches, worked out here and read wherever `read` runs (a reader's
    /// context, off the main thread: `EffectRunner.reread`), then made the list by `install`.
    public struct ReloadPlan: Sendable {
        let entityName: String
        /// The user's filter, sort and grouping the list shows once installed.
        let predicate: VellumStore.QueryPredicate?
        let sortDescriptors: [VellumStore.QuerySortDescriptor]
        let sectionKeyPath: String?
        /// The list's restriction and the filter (`combinedPredicate`).
        let combined: VellumStore.QueryPredicate?
        /// The readable order a short list gets when the user chose none.
        let defaultSort: VellumStore.QuerySortDescriptor?
        /// The rows' count when known without counting (`reloadPlan`).
        let known: Int?
        let batchSize, firstPage, completeUpTo, defaultSortLimit: Int

        /// The request: the user's order, else the default one for a list of at most
        /// `defaultSortLimit` rows (counted on `context` when not known); grouped, the
        /// section key leads.
        func request(counting context: ManagedObjectContext) throws -> FetchRequest {
            var sorts = sortDescriptors
            if sorts.isEmpty, let d = defaultSort,
               try known ?? context.count(FetchRequest(entityName: entityName, predicate: combined, fetchLimit: defaultSortLimit + 1)) <= defaultSortLimit {
                sorts = [d]
            }
            if let key = sectionKeyPath {
                // The section key must lead the sort; the user's order applies within sections.
                let path = key.split(separator: ".").map(String.init)
                let ascending = sorts.first { $0.keyPath == path }?.ascending ?? true
                sorts = [VellumStore.QuerySortDescriptor(key, ascending: ascending)] + sorts.filter { $0.keyPath != path }
            }
            var request = FetchRequest(entityName: entityName, predicate: combined, sortDescriptors: sorts)
            request.fetchBatchSize = batchSize
            return request
        }

        /// What the plan's list holds, read on `context`.
        public struct Read: Sendable {
            let request: FetchRequest
            let fetch: PreparedFetch
        }

        /// Reads the first page and the count (every row of a list short enough to index at once).
        public func read(_ context: ManagedObjectContext) throws -> Read {
            let request = try request(counting: context)
            return Read(request: request, fetch: try ResultsController.prepareFetch(
                context, request, sectionKeyPath: sectionKeyPath, firstPage: firstPage, knownCount: known, completeUpTo: completeUpTo))
        }
    }

    /// The reload of this list with `predicate` (the user's filter), `sortDescriptors` and `sectionKeyPath`.
    public func reloadPlan(predicate: VellumStore.QueryPredicate?, sortDescriptors: [VellumStore.QuerySortDescriptor],
                           sectionKeyPath: String?) -> ReloadPlan {
        let combined = Self.combine(basePredicate, predicate)
        // The rows' count, when known without counting again: the entity's (first load of an
        // unfiltered list), or the list's own when only its order or grouping changes.
        let known: Int?
        if combined == nil, let n = knownCount {
            known = n
        } else if controller.isComplete, controller.fetchRequest.predicate == combined, controller.fetchedObjectCount > 0 {
            known = controller.fetchedObjectCount
        } else {
            known = nil
        }
        return ReloadPlan(entityName: entityName, predicate: predicate, sortDescriptors: sortDescriptors, sectionKeyPath: sectionKeyPath,
                          combined: combined, defaultSort: Self.defaultSort(for: context.model.entity(named: entityName)), known: known,
                          batchSize: batchSize, firstPage: Self.firstPageSize, completeUpTo: Self.backgroundIndexingLimit,
                          defaultSortLimit: Self.defaultSortLimit)
    }

    /// Reloads in place, on the main thread (the first list shown, a reset of everything).
    public func reload() throws {
        let plan = reloadPlan(predicate: predicate, sortDescriptors: sortDescriptors, sectionKeyPath: sectionKeyPath)
        knownCount = nil
        let fresh = ResultsController(fetchRequest: try plan.request(counting: context), context: context, sectionKeyPath: sectionKeyPath)
        // The first page shows at once (sorted: SQLite's top-N sort, one pass, no sorting of
        // every row; grouped: with its sections counted in one scan).
        try fresh.performFetch(firstPage: Self.firstPageSize, knownCount: plan.known)
        if !fresh.isComplete, fresh.fetchedObjectCount <= Self.backgroundIndexingLimit { try fresh.completeFetch() }
        replaceController(with: fresh)
    }

    /// Makes what a reader read for `plan` the list (`heard`: the view context's changes
    /// since the reader began, applied on top); the filter, sort and grouping become the plan's.
    /// On failure the list is as it was.
    public func install(_ plan: ReloadPlan, _ read: ReloadPlan.Read, heard: [ObjectsDidChange]) throws {
        let fresh = ResultsController(fetchRequest: read.request, context: context, sectionKeyPath: plan.sectionKeyPath)
        try fresh.install(read.fetch, heard: heard)
        predicate = plan.predicate
        sortDescriptors = plan.sortDescriptors
        sectionKeyPath = plan.sectionKeyPath
        knownCount = nil
        replaceController(with: fresh)
    }

    private func replaceController(with fresh: ResultsController) {
        fresh.delegate = self
        let old = controller
        controller = fresh
        cachedStarts = nil
        lastInserted = []
        // The old list's index (up to ~100 bytes a row) is freed off the main thread, and
        // the heap it held given back to the system.
        old.discard { FreedMemory.release() }
    }

    /// Starts indexing the rows past the first page off the main thread (the loop asks
    /// each time it wakes; `onIndexed` says when they are in); false while that runs.
    /// In place (true: the screen may change) when it cannot run off the main thread or
    /// failed last time.
    public func completeIndexing() throws -> Bool {
        guard !controller.isComplete else { return false }
        if controller.isLoadingInBackground { return false }
        let loading = controller
        if !backgroundIndexingFailed, controller.completeFetchInBackground({ [weak self] error in
            MainActor.assumeIsolated {
                guard let self, loading === self.controller else { return }
                self.cachedStarts = nil
                self.backgroundIndexingFailed = error != nil
                self.onIndexed?(error)
            }
        }) { return false }
        backgroundIndexingFailed = false
        try controller.completeFetch()
        cachedStarts = nil
        return true
    }

    public func pauseIndexing() { controller.pauseBackgroundLoad() }

    /// Runs `body` once every row is indexed: at once when they are; else after the
    /// indexing off the main thread (started now if it is not running), so what needs every
    /// row (a find's result) does not index them in place; in place only when that cannot run.
    public func whenIndexed(_ body: @escaping @MainActor () -> Void) {
        if !controller.isComplete, !controller.isLoadingInBackground { _ = try? completeIndexing() }
        guard !controller.isComplete, controller.isLoadingInBackground else { return body() }
        let loading = controller
        controller.completeFetchInBackground { [weak self] _ in
            MainActor.assumeIsolated {
                guard let self, loading === self.controller else { return }
                body()
            }
        }
    }

    /// The list's restriction and the user's filter, composed as values: nothing is
    /// printed and parsed again, so no filter the parser accepted can be lost here.
    func combinedPredicate() -> VellumStore.QueryPredicate? { Self.combine(basePredicate, predicate) }

    static func combine(_ base: VellumStore.QueryPredicate?, _ filter: VellumStore.QueryPredicate?) -> VellumStore.QueryPredicate? {
        switch (base, filter) {
        case (nil, nil): return nil
        case (let b?, nil): return b
        case (nil, let p?): return p
        case (let b?, let p?): return .and(b, p)
        }
    }

    /// The controller has already applied the change (it observes the same context,
    /// registered earlier). A change the store could not describe object by object
    /// (the sqlite3 shell without history) is refetched and diffed by the controller
    /// itself, off the main thread; its change set arrives later through the
    /// delegate (`onListChanged`). Only a reset of everything reloads here.
    public func refresh(after change: ObjectsDidChange) throws -> Bool {
        lastInserted = []
        cachedStarts = nil
        if change.invalidatedAll {
            let before = Set(controller.fetchedObjectIDs)
            try reload()
            lastInserted = Set(controller.fetchedObjectIDs).subtracting(before)
            return true
        }
        lastInserted = change.inserted.filter { controller.indexPath(for: $0) != nil }
        return !change.isEmpty
    }
}
