import VellumStore

/// A `RowSource` over a `ResultsController`: the controller keeps the ordered
/// IDs current incrementally (on the view context's objectsDidChange); rows
/// load in batches of `batchSize` only when the table reads them.
@MainActor
public final class ResultsRowSource: RowSource {
    public let context: ManagedObjectContext
    public let entityName: String
    public var predicate: VellumStore.Predicate?
    public var sortDescriptors: [VellumStore.SortDescriptor]
    /// Extra restriction that the user's filter cannot remove (relationship navigation).
    public var basePredicate: VellumStore.Predicate?
    public let batchSize: Int
    public private(set) var controller: ResultsController
    /// Inserted or moved IDs of the last change set (for flashing).
    public private(set) var lastInserted: Set<ObjectID> = []

    public init(context: ManagedObjectContext, entityName: String,
                predicate: VellumStore.Predicate? = nil, sortDescriptors: [VellumStore.SortDescriptor] = [],
                basePredicate: VellumStore.Predicate? = nil, batchSize: Int = 100) throws {
        self.context = context
        self.entityName = entityName
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
        self.basePredicate = basePredicate
        self.batchSize = batchSize
        controller = ResultsController(fetchRequest: FetchRequest(entityName: entityName), context: context)
        try reload()
    }

    /// The default order when the user chose none: the first plain attribute, so
    /// the controller (which needs a sort) has a stable, meaningful order.
    public static func defaultSort(for entity: Entity?) -> VellumStore.SortDescriptor? {
        guard let entity else { return nil }
        let plain = entity.attributes.filter { !$0.isTransient && ![.binary, .transformable, .undefined].contains($0.type) }
        let preferred = ["name", "title"].compactMap { key in plain.first { $0.name == key } }.first ?? plain.first
        return preferred.map { VellumStore.SortDescriptor($0.name) }
    }

    public var effectiveSort: VellumStore.SortDescriptor? { controller.fetchRequest.sortDescriptors.first }

    public var count: Int { controller.fetchedObjectCount }
    public var rowIDs: [ObjectID] { controller.fetchedObjectIDs }

    public func id(at index: Int) -> ObjectID? {
        try? controller.objectID(at: ResultsIndexPath(item: index, section: 0))
    }

    public func object(at index: Int) throws -> ManagedObject {
        try controller.object(at: ResultsIndexPath(item: index, section: 0))
    }

    public func index(of id: ObjectID) -> Int? {
        guard let p = controller.indexPath(for: id) else { return nil }
        return p.item
    }

    public func reload() throws {
        var sorts = sortDescriptors
        if sorts.isEmpty, let d = Self.defaultSort(for: context.model.entity(named: entityName)) { sorts = [d] }
        var request = FetchRequest(entityName: entityName, predicate: combinedPredicate(), sortDescriptors: sorts)
        request.fetchBatchSize = batchSize
        let fresh = ResultsController(fetchRequest: request, context: context)
        try fresh.performFetch()
        controller = fresh
        lastInserted = []
    }

    private func combinedPredicate() -> VellumStore.Predicate? {
        switch (basePredicate, predicate) {
        case (nil, nil): return nil
        case (let b?, nil): return b
        case (nil, let p?): return p
        case (let b?, let p?): return (try? VellumStore.Predicate(format: "(\(b.description)) AND (\(p.description))")) ?? b
        }
    }

    /// The controller has already applied the change (it observes the same context,
    /// registered earlier). A change the store could not describe object by object
    /// (the sqlite3 shell without history) needs a refetch, diffed here.
    public func refresh(after change: ObjectsDidChange) throws -> Bool {
        lastInserted = []
        if change.storeChangedExternally || change.invalidatedAll {
            let before = Set(controller.fetchedObjectIDs)
            try reload()
            lastInserted = Set(controller.fetchedObjectIDs).subtracting(before)
            return true
        }
        lastInserted = change.inserted.filter { controller.indexPath(for: $0) != nil }
        return !change.isEmpty
    }
}
