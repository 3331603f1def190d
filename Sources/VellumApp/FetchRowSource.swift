import VellumStore

/// The simplest `RowSource`: refetches the ordered IDs (never values) on
/// every change; the view then faults in only the visible rows.
@MainActor
public final class FetchRowSource: RowSource {
    public let context: ManagedObjectContext
    public let entityName: String
    public var predicate: VellumStore.Predicate?
    public var sortDescriptors: [VellumStore.SortDescriptor]
    public private(set) var rowIDs: [ObjectID] = []

    public init(context: ManagedObjectContext, entityName: String,
                predicate: VellumStore.Predicate? = nil, sortDescriptors: [VellumStore.SortDescriptor] = []) throws {
        self.context = context
        self.entityName = entityName
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
        try reload()
    }

    public var count: Int { rowIDs.count }

    public func object(at index: Int) throws -> ManagedObject {
        try context.object(with: rowIDs[index])
    }

    public func reload() throws {
        rowIDs = try context.fetchObjectIDs(FetchRequest(entityName: entityName, predicate: predicate, sortDescriptors: sortDescriptors))
    }

    public func refresh(after change: ObjectsDidChange) throws -> Bool {
        guard !change.isEmpty else { return false }
        let before = rowIDs
        try reload()
        // Updates may change sort/filter membership without changing the ID list;
        // report them anyway so visible values are redrawn.
        return before != rowIDs || !change.updated.isEmpty || !change.refreshed.isEmpty || change.invalidatedAll
    }
}
