import Foundation

/// A type-checked predicate over a generated type, built from key paths:
/// `\Book.price < 5 && \Book.author?.name == "Le Guin"`. It holds the same
/// `QueryPredicate` the string syntax parses to (`price < 5 AND author.name == "Le Guin"`).
public struct TypedPredicate<Root: TypedEntity>: Sendable {
    /// The predicate, or why a key path could not be named (thrown when it is used).
    let result: Result<QueryPredicate, StoreError>

    public init(_ predicate: QueryPredicate) { result = .success(predicate) }
    init(failure: StoreError) { result = .failure(failure) }

    /// The untyped predicate; throws when a key path is not a modelled property.
    public func predicate() throws(StoreError) -> QueryPredicate { try result.get() }

    /// Joins two predicates, keeping the first failure.
    func joined(_ other: TypedPredicate<Root>, _ join: (QueryPredicate, QueryPredicate) -> QueryPredicate) -> TypedPredicate<Root> {
        switch (result, other.result) {
        case (.success(let a), .success(let b)): return TypedPredicate(join(a, b))
        case (.failure(let e), _), (_, .failure(let e)): return TypedPredicate(failure: e)
        }
    }

    /// The key names of `keyPath`, or a failure naming it.
    static func names(_ keyPath: AnyKeyPath) -> Result<[String], StoreError> {
        guard let names = Root.keyNames(of: keyPath) else {
            return .failure(.invalidOperation("\(keyPath) is not a modelled property of \(Root.entityName)"))
        }
        return .success(names)
    }

    static func comparison(_ keyPath: AnyKeyPath, _ op: ComparisonOperator, _ value: Value) -> TypedPredicate<Root> {
        switch names(keyPath) {
        case .success(let names): return TypedPredicate(.comparison(Comparison(.keyPath(names), op, .constant(value))))
        case .failure(let e): return TypedPredicate(failure: e)
        }
    }
}

public func && <TypedRoot>(lhs: TypedPredicate<TypedRoot>, rhs: TypedPredicate<TypedRoot>) -> TypedPredicate<TypedRoot> { lhs.joined(rhs, QueryPredicate.and) }
public func || <TypedRoot>(lhs: TypedPredicate<TypedRoot>, rhs: TypedPredicate<TypedRoot>) -> TypedPredicate<TypedRoot> { lhs.joined(rhs, QueryPredicate.or) }
public prefix func ! <TypedRoot>(operand: TypedPredicate<TypedRoot>) -> TypedPredicate<TypedRoot> {
    switch operand.result {
    case .success(let p): return TypedPredicate(.not(p))
    case .failure: return operand
    }
}

// Comparisons of a key path with a value. Optional properties compare with a
// plain value or nil; ordering needs a Comparable value.
public func == <TypedRoot, V: ValueConvertible>(lhs: KeyPath<TypedRoot, V>, rhs: V) -> TypedPredicate<TypedRoot> {
    .comparison(lhs, .equal, rhs.attributeValue)
}
public func != <TypedRoot, V: ValueConvertible>(lhs: KeyPath<TypedRoot, V>, rhs: V) -> TypedPredicate<TypedRoot> {
    .comparison(lhs, .notEqual, rhs.attributeValue)
}
public func < <TypedRoot, V: ValueConvertible & Comparable>(lhs: KeyPath<TypedRoot, V>, rhs: V) -> TypedPredicate<TypedRoot> {
    .comparison(lhs, .less, rhs.attributeValue)
}
public func <= <TypedRoot, V: ValueConvertible & Comparable>(lhs: KeyPath<TypedRoot, V>, rhs: V) -> TypedPredicate<TypedRoot> {
    .comparison(lhs, .lessOrEqual, rhs.attributeValue)
}
public func > <TypedRoot, V: ValueConvertible & Comparable>(lhs: KeyPath<TypedRoot, V>, rhs: V) -> TypedPredicate<TypedRoot> {
    .comparison(lhs, .greater, rhs.attributeValue)
}
public func >= <TypedRoot, V: ValueConvertible & Comparable>(lhs: KeyPath<TypedRoot, V>, rhs: V) -> TypedPredicate<TypedRoot> {
    .comparison(lhs, .greaterOrEqual, rhs.attributeValue)
}
public func < <TypedRoot, V: ValueConvertible & Comparable>(lhs: KeyPath<TypedRoot, V?>, rhs: V) -> TypedPredicate<TypedRoot> {
    .comparison(lhs, .less, rhs.attributeValue)
}
public func <= <TypedRoot, V: ValueConvertible & Comparable>(lhs: KeyPath<TypedRoot, V?>, rhs: V) -> TypedPredicate<TypedRoot> {
    .comparison(lhs, .lessOrEqual, rhs.attributeValue)
}
public func > <TypedRoot, V: ValueConvertible & Comparable>(lhs: KeyPath<TypedRoot, V?>, rhs: V) -> TypedPredicate<TypedRoot> {
    .comparison(lhs, .greater, rhs.attributeValue)
}
public func >= <TypedRoot, V: ValueConvertible & Comparable>(lhs: KeyPath<TypedRoot, V?>, rhs: V) -> TypedPredicate<TypedRoot> {
    .comparison(lhs, .greaterOrEqual, rhs.attributeValue)
}
/// `\Book.author == nil`: a relationship (or any property) that is nil.
public func == <TypedRoot, V>(lhs: KeyPath<TypedRoot, V?>, rhs: _OptionalNilComparisonType) -> TypedPredicate<TypedRoot> {
    .comparison(lhs, .equal, .null)
}
public func != <TypedRoot, V>(lhs: KeyPath<TypedRoot, V?>, rhs: _OptionalNilComparisonType) -> TypedPredicate<TypedRoot> {
    .comparison(lhs, .notEqual, .null)
}

/// `\Book.author == leGuin`: the to-one relationship holds that (saved) object; compared
/// by object ID, as the string syntax's `author == %@` with its URI.
public func == <TypedRoot, Destination: TypedEntity>(lhs: KeyPath<TypedRoot, Destination?>, rhs: Destination) -> TypedPredicate<TypedRoot> {
    .comparison(lhs, .equal, .uri(rhs.objectID.uri))
}
public func != <TypedRoot, Destination: TypedEntity>(lhs: KeyPath<TypedRoot, Destination?>, rhs: Destination) -> TypedPredicate<TypedRoot> {
    .comparison(lhs, .notEqual, .uri(rhs.objectID.uri))
}

extension KeyPath where Root: TypedEntity, Value == String {
    /// `CONTAINS`, `BEGINSWITH`, `ENDSWITH` on a string property.
    public func contains(_ text: String) -> TypedPredicate<Root> { .comparison(self, .contains, .string(text)) }
    public func starts(with text: String) -> TypedPredicate<Root> { .comparison(self, .beginsWith, .string(text)) }
    public func ends(with text: String) -> TypedPredicate<Root> { .comparison(self, .endsWith, .string(text)) }
}
