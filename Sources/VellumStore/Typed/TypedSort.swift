import Foundation

/// A sort key of a generated type from a key path: `.ascending(\Book.title)`,
/// `.descending(\Book.price)`. The same `QuerySortDescriptor` as the string `"title"`.
public struct TypedSort<Root: TypedEntity>: Sendable {
    let result: Result<QuerySortDescriptor, StoreError>

    public init(_ keyPath: PartialKeyPath<Root>, ascending: Bool = true, comparison: QuerySortDescriptor.Comparison = .binary) {
        result = TypedPredicate<Root>.names(keyPath).map { QuerySortDescriptor(keyPath: $0, ascending: ascending, comparison: comparison) }
    }

    public static func ascending(_ keyPath: PartialKeyPath<Root>) -> TypedSort { TypedSort(keyPath) }
    public static func descending(_ keyPath: PartialKeyPath<Root>) -> TypedSort { TypedSort(keyPath, ascending: false) }

    /// The untyped descriptor; throws when the key path is not a modelled property.
    public func descriptor() throws(StoreError) -> QuerySortDescriptor { try result.get() }
}
