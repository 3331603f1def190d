import Foundation

/// What to fetch: an entity, an optional predicate, sort order, paging.
public struct FetchRequest: Sendable {
    public enum ResultType: Sendable { case objects, objectIDs }

    public var entityName: String
    public var predicate: QueryPredicate?
    public var sortDescriptors: [QuerySortDescriptor]
    /// Values for `$variables` in the predicate.
    public var variables: [String: Value]
    public var fetchLimit: Int?
    public var fetchOffset: Int
    /// When > 0, objects come back as faults whose values load `fetchBatchSize` at a time on first access.
    public var fetchBatchSize: Int
    public var includesSubentities: Bool
    /// Include this context's unsaved inserts, changes and deletes (Core Data's default).
    public var includesPendingChanges: Bool
    public var resultType: ResultType

    public init(entityName: String, predicate: QueryPredicate? = nil, sortDescriptors: [QuerySortDescriptor] = [],
                variables: [String: Value] = [:], fetchLimit: Int? = nil, fetchOffset: Int = 0, fetchBatchSize: Int = 0,
                includesSubentities: Bool = true, includesPendingChanges: Bool = true, resultType: ResultType = .objects) {
        self.entityName = entityName
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
        self.variables = variables
        self.fetchLimit = fetchLimit
        self.fetchOffset = fetchOffset
        self.fetchBatchSize = fetchBatchSize
        self.includesSubentities = includesSubentities
        self.includesPendingChanges = includesPendingChanges
        self.resultType = resultType
    }
}
