import Foundation

/// Keeps a sorted, optionally sectioned list of a fetch request's results up to
/// date as the context changes, like `NSFetchedResultsController`.
///
/// Use it on its context's queue (the main actor for a view context). It holds an
/// ordered index of (ObjectID, sort-key values) — not managed objects — and
/// loads objects through the context in batches when rows are read. Each
/// `objectsDidChange` of the context is applied incrementally: only the changed
/// objects (and objects whose key paths run through a changed related object)
/// are evaluated in memory; positions are found by binary search. Changes are
/// delivered to the `delegate` and to `changes()` streams as `ResultsChangeSet`s,
/// on the main queue one per turn (see `ResultsController+Coalescing`); reading the
/// controller applies pending changes first.
/// `fetchLimit` and `fetchOffset` of the request are ignored.
public final class ResultsController {
    public let fetchRequest: FetchRequest
    public let context: ManagedObjectContext
    public let sectionKeyPath: String?
    public weak var delegate: (any ResultsControllerDelegate)?
    /// Keeps the adapter behind `mainActorDelegate` (`delegate` holds it weakly).
    var mainActorAdapter: AnyObject?

    var index: ResultsIndex
    var temporaryIDs: Set<ObjectID> = []
    var fetched = false
    /// The full count while only a first page is indexed.
    var partialCount: Int?
    var tokens: [ObservationToken] = []
    var continuations: [UUID: AsyncStream<ResultsChangeSet>.Continuation] = [:]
    /// Relationship chains (from the fetched entity) read by the predicate or sort keys.
    var dependencyChains: [[RelationshipDescription]] = []
    var allowedEntities: Set<String> = []
    var rootName = ""
    /// The last error met while applying a change (a row that could not be re-read
    /// stays where it was, a failed reload keeps the list); nil once a change applies
    /// cleanly. The delegate hears of each one too.
    public internal(set) var lastError: StoreError? {
        get {
            applyPendingChanges()
            return latestError
        }
        set { latestError = newValue }
    }
    var latestError: StoreError?
    /// Synchronous hook called with every delivered change set (tests).
    var onChangeSet: ((ResultsChangeSet) -> Void)?
    /// The refetch-and-diff in flight after a coarse outside change (ResultsController+Refetch).
    var externalRefetch = ExternalRefetch()
    /// Changes collected during this main-queue turn (ResultsController+Coalescing).
    var pending = PendingChanges()
    /// The rest of a first page being indexed off the main thread (ResultsController+BackgroundLoad).
    var backgroundLoad = BackgroundLoad()
    /// Objects to evaluate again once the server answers (ResultsController+Failures).
    var unreachable = Unreachable()

    public init(fetchRequest: FetchRequest, context: ManagedObjectContext, sectionKeyPath: String? = nil) {
        self.fetchRequest = fetchRequest
        self.context = context
        self.sectionKeyPath = sectionKeyPath
        self.index = ResultsIndex(descriptors: fetchRequest.sortDescriptors, sectioned: sectionKeyPath != nil)
    }

    deinit {
        for t in tokens { context.removeObserver(t) }
        for c in continuations.values { c.finish() }
    }

    // MARK: - Fetching

    /// Fetches IDs and sort keys and starts tracking changes. Without sort
    /// descriptors the list is in object-ID order (insertion order), which needs
    /// no sort keys at all — the cheapest order for very large lists.
    ///
    /// With `firstPage`, only that many leading rows are read now (plus a count of
    /// all of them, `fetchedObjectCount`), so a screen can be drawn at once — for a
    /// sorted list SQLite keeps only the first rows while it scans (a top-N sort), so
    /// this is one pass and no sort of every row; call `completeFetch()` afterwards to
    /// index the rest in place, or `completeFetchInBackground` (on the main queue) to
    /// index it off the main thread.
    ///
    /// `knownCount`: how many rows the request matches, when the caller has just counted
    /// them (the entity's count, for an unfiltered list; the list being re-sorted), so a
    /// first page is not followed by another count.
    public func performFetch(firstPage: Int? = nil, knownCount: Int? = nil) throws(StoreError) {
        try StoreError.nesting { try indexRows(firstPage: firstPage, knownCount: knownCount) }
    }

    private func indexRows(firstPage: Int?, knownCount: Int?) throws {
        try Self.checkSectioning(fetchRequest, sectionKeyPath)
        try learnEntity()
        if let firstPage, context.pendingObjects.isEmpty {
            let page = try Self.readFirstPage(context, fetchRequest, sectioned: sectionKeyPath != nil, firstPage: firstPage, knownCount: knownCount)
            replaceIndex(with: page.index)
            partialCount = page.partialCount
        } else {
            try refetch()
            partialCount = nil
        }
        fetched = true
        observeContext()
    }

    /// A sectioned list must lead its sort with the section key, compared as binary.
    static func checkSectioning(_ request: FetchRequest, _ sectionKeyPath: String?) throws {
        guard let sectionKeyPath else { return }
        guard let first = request.sortDescriptors.first else { throw StoreError.results(.missingSortDescriptors) }
        let firstKey = first.keyPath.joined(separator: ".")
        guard firstKey == sectionKeyPath else {
            throw StoreError.results(.sectionKeyPathNotFirstSortKey(sectionKeyPath: sectionKeyPath, firstSortKey: firstKey))
        }
        guard first.comparison == .binary else { throw StoreError.results(.sectionSortMustBeBinary(sectionKeyPath)) }
    }

    /// The fetched entity's names and the relationship chains the request reads.
    func learnEntity() throws {
        let entity = try context.entity(fetchRequest.entityName)
        rootName = entity.rootName
        allowedEntities = Set(fetchRequest.includesSubentities ? entity.hierarchyNames : [entity.name])
        dependencyChains = Self.chains(for: fetchRequest, entity: entity, model: context.model)
    }

    /// The first `firstPage` rows, and how many rows the list has: nil when the page is the
    /// whole list (else `knownCount`, or counted). A grouped list's sections are counted
    /// first, in one scan (no sort), so its first page shows them whole and its query reads
    /// only the sections the page can reach (`SectionCounts.bound`: text keys).
    static func readFirstPage(_ context: ManagedObjectContext, _ request: FetchRequest, sectioned: Bool,
                              firstPage: Int, knownCount: Int?) throws -> (index: ResultsIndex, partialCount: Int?) {
        guard sectioned else {
            let index = try buildIndex(context, request, sectioned: false, limit: firstPage)
            return (index, index.entries.count < firstPage ? nil : try knownCount ?? context.count(request))
        }
        // Both reads in one transaction, so one snapshot (SQLite's WAL): a write between them
        // would put a row of an uncounted section under another section's header.
        let connection = context.connection
        let read = { () throws -> (index: ResultsIndex, partialCount: Int?) in
            let sections = try context.countsByFirstSortKey(request)
            let bound = sections.bound(coveringFirst: firstPage)
            var index = try buildIndex(context, request, sectioned: true, limit: firstPage, firstKeyUpTo: bound)
            if index.entries.count < firstPage, bound == nil { return (index, nil) }
            index.setSections(sections.counts.map { (ResultsIndex.sectionName($0.value), $0.count) })
            return (index, sections.total)
        }
        return try connection.isInTransaction ? read() : connection.transaction(.deferred, read)
    }

    /// Starts hearing the context's changes and saves (once).
    func observeContext() {
        guard tokens.isEmpty else { return }
        tokens.append(context.observeChanges { [weak self] event in self?.contextDidChange(event) })
        tokens.append(context.observeSaves { [weak self] event in self?.contextDidSave(event) })
    }

    /// True once every matching row is indexed (see `performFetch(firstPage:)`).
    public var isComplete: Bool { partialCount == nil }

    /// Indexes the rows a first-page fetch left out. The first page is a prefix of
    /// the full list (same query, same order) and the count was already reported,
    /// so nothing visible moves and no change set is sent. (A change arriving while
    /// only the first page is indexed triggers a full reload instead.)
    public func completeFetch() throws(StoreError) {
        guard fetched, partialCount != nil else { return }
        try StoreError.nesting { try refetch() }
    }

    func refetch(limit: Int? = nil) throws {
        replaceIndex(with: try Self.buildIndex(context, fetchRequest, sectioned: sectionKeyPath != nil, limit: limit))
    }

    /// Makes `fresh`, read here for this request, the whole list (unsaved changes applied).
    private func replaceIndex(with fresh: ResultsIndex) {
        partialCount = nil
        backgroundLoad.generation += 1   // an index being built off the main thread is stale now
        endPausedLoad()
        index = fresh
        temporaryIDs = []
        discardPendingChanges()
        // Unsaved changes: re-evaluate in memory, silently.
        let pending = context.pendingObjects.map(\.objectID)
        if !pending.isEmpty {
            _ = process(changed: Set(pending), gone: [], renames: [:], computeChanges: false)
        }
    }

    // MARK: - Reading

    /// The number of matching objects (all of them, even before `completeFetch()`).
    public var fetchedObjectCount: Int {
        applyPendingChanges()
        return partialCount ?? index.entries.count
    }

    /// The current sections with their object IDs (copies the IDs; a first page is
    /// indexed in full first).
    public var sections: [ResultsSection] {
        if partialCount != nil { try? completeFetch() }
        applyPendingChanges()
        return fetched ? index.snapshot.sections : []
    }

    public var snapshot: ResultsSnapshot {
        if partialCount != nil { try? completeFetch() }
        applyPendingChanges()
        return fetched ? index.snapshot : ResultsSnapshot()
    }

    /// All object IDs in order.
    public var fetchedObjectIDs: [ObjectID] {
        applyPendingChanges()
        return Array(index.entries)
    }

    /// Each section's name (nil: the section of nil values) and size, without copying
    /// the IDs that `sections` copies (a million of them in a large grouped list).
    public var sectionNamesAndCounts: [(name: String?, count: Int)] {
        applyPendingChanges()
        return fetched ? index.sections.map { ($0.name, $0.count) } : []
    }

    /// Stops tracking, for a controller being replaced: observers are removed, a load or
    /// refetch off the main thread is stopped, and the index is freed on a background
    /// queue (a million entries take a noticeable time to free), then `freed` runs there.
    /// The controller lists nothing afterwards.
    public func discard(freed: (@Sendable () -> Void)? = nil) {
        fetched = false
        for t in tokens { context.removeObserver(t) }
        tokens = []
        partialCount = nil
        backgroundLoad.generation += 1
        endPausedLoad()
        if backgroundLoad.running || externalRefetch.running { externalRefetch.reader?.queryInterrupter.interrupt() }
        discardPendingChanges()
        let old = Handoff(value: index)
        index = ResultsIndex(descriptors: fetchRequest.sortDescriptors, sectioned: sectionKeyPath != nil)
        DispatchQueue.global(qos: .utility).async {
            withExtendedLifetime(old) {}
            freed?()
        }
    }

    public func numberOfObjects(inSection section: Int) -> Int {
        applyPendingChanges()
        return index.sections.indices.contains(section) ? index.sections[section].count : 0
    }

    public var numberOfSections: Int {
        applyPendingChanges()
        return fetched ? index.sections.count : 0
    }

    public func objectID(at indexPath: ResultsIndexPath) throws(StoreError) -> ObjectID {
        applyPendingChanges()
        if partialCount != nil, !isIndexed(indexPath) { try completeFetch() }
        guard let p = index.position(of: indexPath) else { throw StoreError.results(.indexPathOutOfRange(indexPath)) }
        return index.entries[p]
    }

    /// The object at an index path; its batch neighbours (`fetchBatchSize`, 50 when 0)
    /// are loaded in the same query.
    public func object(at indexPath: ResultsIndexPath) throws -> ManagedObject {
        applyPendingChanges()
        if partialCount != nil, !isIndexed(indexPath) { try completeFetch() }
        guard let p = index.position(of: indexPath) else { throw StoreError.results(.indexPathOutOfRange(indexPath)) }
        let object = try context.object(with: index.entries[p])
        if object.isFault {
            let size = fetchRequest.fetchBatchSize > 0 ? fetchRequest.fetchBatchSize : 50
            let start = (p / size) * size
            let batch = try index.entries[start..<min(index.entries.count, start + size)].map { try context.object(with: $0) }
            try context.loadFaults(batch)
            try object.fireFault()
        }
        return object
    }

    /// Whether the entry at `indexPath` is indexed (a first page's counted sections reach past it).
    private func isIndexed(_ indexPath: ResultsIndexPath) -> Bool {
        index.position(of: indexPath).map { $0 < index.entries.count } ?? false
    }

    public func indexPath(for id: ObjectID) -> ResultsIndexPath? {
        applyPendingChanges()
        guard let p = index.position(of: id) else { return nil }
        return index.indexPath(forPosition: p)
    }

    /// A stream of change sets, from now on.
    public func changes() -> AsyncStream<ResultsChangeSet> {
        let (stream, continuation) = AsyncStream<ResultsChangeSet>.makeStream()
        continuations[UUID()] = continuation
        return stream
    }

    // MARK: - Change handling

    func contextDidChange(_ event: ObjectsDidChange) {
        guard fetched else { return }
        if heardDuringBackgroundLoad(event) { return }
        if event.invalidatedAll || partialCount != nil {
            lastError = nil
            reload()
            return
        }
        guard event.storeChangedExternally else {
            collect(event)
            return
        }
        // A writer without history: ask SQL what the list is now, and treat every
        // object whose presence or sort keys differ as changed — still one diffed change set,
        // with what this turn collected. Off the main thread when on it (ResultsController+Refetch).
        guard let found = refetchAfterExternalChange() else {
            lastError = nil
            reload()
            return
        }
        pending.add(ObjectsDidChange(refreshed: found))
        pending.add(event)
        applyPendingChanges()
    }

    func contextDidSave(_ event: DidSave) {
        guard fetched, !pending.applying else { return }
        var renames: [ObjectID: ObjectID] = [:]
        for t in temporaryIDs {
            if let p = context.store.permanentID(for: t), p != t { renames[t] = p }
        }
        // What this turn collected goes with the renames, under the saved objects' permanent IDs
        // (and so does what a background load holds for later).
        pending.resolveTemporaryIDs { context.store.permanentID(for: $0) }
        if backgroundLoad.running { backgroundLoad.heard.resolveTemporaryIDs { context.store.permanentID(for: $0) } }
        guard !renames.isEmpty || !pending.isEmpty else { return }
        let (changed, gone) = (pending.changed, pending.gone)
        discardPendingChanges()
        lastError = nil
        deliver(process(changed: changed, gone: gone, renames: renames, computeChanges: true))
    }

    func reload() {
        let old = index.snapshot
        let oldPartialCount = partialCount
        do { try refetch() } catch {
            // The list stays as it was (not emptied): the failure is reported instead,
            // and a server that was away is asked again until it answers.
            partialCount = oldPartialCount
            report(error)
            if Self.triesAgain(StoreError(nesting: error), unreachable) { reloadAgainLater() }
            return
        }
        var c = ResultsChangeSet()
        c.isReload = true
        c.sectionDeletes = old.sections.enumerated().map { .init(index: $0.offset, name: $0.element.name) }
        c.sectionInserts = index.sections.enumerated().map { .init(index: $0.offset, name: $0.element.name) }
        c.objectInserts = index.entries.indices.map { .init(id: index.entries[$0], indexPath: index.indexPath(forPosition: $0)) }
        var diff: [CollectionDifference<ObjectID>.Change] = []
        for (i, id) in old.objectIDs.enumerated() { diff.append(.remove(offset: i, element: id, associatedWith: nil)) }
        for (i, id) in index.entries.enumerated() { diff.append(.insert(offset: i, element: id, associatedWith: nil)) }
        c.difference = CollectionDifference(diff) ?? c.difference
        for cont in continuations.values { cont.yield(c) }
        onChangeSet?(c)
        delegate?.controllerDidReloadContent(self)
    }

    func deliver(_ c: ResultsChangeSet?) {
        guard let c, !c.isEmpty else { return }
        for cont in continuations.values { cont.yield(c) }
        onChangeSet?(c)
        guard let delegate else { return }
        delegate.controllerWillChangeContent(self)
        for s in c.sectionDeletes { delegate.controller(self, didChange: s, for: .delete) }
        for s in c.sectionInserts { delegate.controller(self, didChange: s, for: .insert) }
        for o in c.objectDeletes { delegate.controller(self, didChange: o.id, at: o.indexPath, for: .delete, newIndexPath: nil) }
        for o in c.objectInserts { delegate.controller(self, didChange: o.id, at: nil, for: .insert, newIndexPath: o.indexPath) }
        for m in c.objectMoves { delegate.controller(self, didChange: m.id, at: m.from, for: .move, newIndexPath: m.to) }
        for o in c.objectUpdates { delegate.controller(self, didChange: o.id, at: nil, for: .update, newIndexPath: o.indexPath) }
        delegate.controllerDidChangeContent(self)
    }
}
