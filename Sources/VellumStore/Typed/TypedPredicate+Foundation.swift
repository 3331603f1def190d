import Foundation

extension TypedPredicate {
    /// Foundation's `#Predicate` over a generated type, as the same predicate the
    /// string syntax gives: `TypedPredicate(#Predicate<Book> { $0.price < 5 })`.
    /// An expression Vellum cannot run in SQL (see `FoundationPredicateConversion`)
    /// is a `StoreError.query` naming it, thrown when the predicate is used.
    public init(_ predicate: Foundation.Predicate<Root>) {
        result = Result { () throws(StoreError) in try FoundationPredicateConversion.predicate(of: predicate) }
    }
}

extension ManagedObjectContext {
    /// `try ctx.fetch(Book.self, where: #Predicate { $0.price < 5 }, sortedBy: [.ascending(\.title)])`.
    public func fetch<Root: TypedEntity>(_ type: Root.Type, where predicate: Foundation.Predicate<Root>,
                                         sortedBy sort: [TypedSort<Root>] = [], limit: Int? = nil) throws(StoreError) -> [Root] {
        try fetch(type, where: TypedPredicate(predicate), sortedBy: sort, limit: limit)
    }
}
