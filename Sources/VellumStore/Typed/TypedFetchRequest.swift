import Foundation

/// A fetch request whose results are `Root`s (generated: `Book.fetchRequest()`).
public struct TypedFetchRequest<Root: TypedEntity>: Sendable {
    public var request: FetchRequest

    /// Throws when a key path of the predicate or sorts is not a modelled property.
    public init(where predicate: TypedPredicate<Root>? = nil, sortedBy sort: [TypedSort<Root>] = [],
                limit: Int? = nil, batchSize: Int = 0) throws(StoreError) {
        request = FetchRequest(entityName: Root.entityName, predicate: try predicate?.predicate(),
                               sortDescriptors: try sort.map { s throws(StoreError) in try s.descriptor() })
        request.fetchLimit = limit
        request.fetchBatchSize = batchSize
    }

    /// A typed request over an untyped one of the same entity.
    public init(_ request: FetchRequest) {
        self.request = request
        self.request.entityName = Root.entityName
    }
}

extension ManagedObjectContext {
    /// `try ctx.fetch(Book.self, where: \.price < 5, sortedBy: [.ascending(\.title)])`.
    @inlinable
    public func fetch<Root: TypedEntity>(_ type: Root.Type, where predicate: TypedPredicate<Root>? = nil,
                                         sortedBy sort: [TypedSort<Root>] = [], limit: Int? = nil) throws(StoreError) -> [Root] {
        try fetch(TypedFetchRequest<Root>(where: predicate, sortedBy: sort, limit: limit))
    }

    /// A typed fetch with a predicate in the string syntax.
    @inlinable
    public func fetch<Root: TypedEntity>(_ type: Root.Type, where predicate: QueryPredicate?,
                                         sortedBy sort: [TypedSort<Root>] = [], limit: Int? = nil) throws(StoreError) -> [Root] {
        var typed = try TypedFetchRequest<Root>(sortedBy: sort, limit: limit)
        typed.request.predicate = predicate
        return try fetch(typed)
    }

    /// Inlinable so that it is specialized for the generated type in the caller's module:
    /// generic, each wrapper was made through witness tables (~600 instructions a row,
    /// most of `fetch-100k-typed`'s distance from the untyped fetch).
    @inlinable
    public func fetch<Root: TypedEntity>(_ request: TypedFetchRequest<Root>) throws(StoreError) -> [Root] {
        let objects = try fetch(request.request)
        var typed: [Root] = []
        typed.reserveCapacity(objects.count)
        for object in objects { typed.append(Root(object: object)) }
        return typed
    }

    public func count<Root: TypedEntity>(_ request: TypedFetchRequest<Root>) throws(StoreError) -> Int {
        try count(request.request)
    }
}

extension TypedEntity {
    /// A typed request for this entity: `try Book.fetchRequest(where: \.price < 5, sortedBy: [.ascending(\.title)])`.
    public static func fetchRequest(where predicate: TypedPredicate<Self>? = nil, sortedBy sort: [TypedSort<Self>] = [],
                                    limit: Int? = nil) throws(StoreError) -> TypedFetchRequest<Self> {
        try TypedFetchRequest(where: predicate, sortedBy: sort, limit: limit)
    }
}
