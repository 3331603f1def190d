import Foundation

// What generated properties call. Getters do not throw (a Swift property with a setter
// cannot): a read that fails — the object was deleted by another writer, its context
// reset — gives nil or the type's empty value and the context's next `save()` throws
// the reason. Setters defer their errors to `save()` the same way.

extension TypedEntity {
    /// An optional attribute.
    @inlinable
    public func attribute<T: ValueConvertible>(_ key: String, as type: T.Type = T.self) -> T? {
        do { return try object.get(key, as: T.self) } catch { deferError(error); return nil }
    }

    /// A required attribute: `empty` while it has no value yet (a new object before it is set).
    @inlinable
    public func attribute<T: ValueConvertible>(_ key: String, empty: T) -> T {
        attribute(key, as: T.self) ?? empty
    }

    /// The generated getters: `index` is the attribute's position in the generated model
    /// (`ManagedObject.value(forKey:expectedIndex:)`), checked, so reads skip the lookup by name.
    @inlinable
    public func attribute<T: ValueConvertible>(_ key: String, at index: Int, as type: T.Type = T.self) -> T? {
        object.generatedValue(key, at: index, as: T.self)
    }

    @inlinable
    public func attribute<T: ValueConvertible>(_ key: String, at index: Int, empty: T) -> T {
        attribute(key, at: index, as: T.self) ?? empty
    }

    @inlinable
    public func setAttribute<T: ValueConvertible>(_ key: String, at index: Int, _ value: T?) {
        object.setGeneratedValue(key, at: index, value)
    }

    @inlinable
    public func setAttribute<T: ValueConvertible>(_ key: String, _ value: T?) {
        do { try object.set(key, value) } catch { deferError(error) }
    }

    /// A transformable attribute as the `Codable` type the model names (its stored JSON decoded).
    public func transformableAttribute<T: Decodable>(_ key: String, as type: T.Type = T.self) -> T? {
        do { return try object.transformable(key, as: T.self) } catch { deferError(error); return nil }
    }

    public func setTransformableAttribute<T: Encodable>(_ key: String, _ value: T?) {
        do { try object.setTransformable(key, value) } catch { deferError(error) }
    }

    /// A to-one relationship.
    public func toOne<T: TypedEntity>(_ key: String, as type: T.Type = T.self) -> T? {
        do { return try object.toOne(key).map { try T.entity($0) } } catch { deferError(error); return nil }
    }

    public func setToOne<T: TypedEntity>(_ key: String, _ destination: T?) {
        do { try object.setToOne(key, destination?.object) } catch { deferError(error) }
    }

    /// A to-many relationship; an ordered one in its order.
    public func toMany<T: TypedEntity>(_ key: String, as type: T.Type = T.self) -> [T] {
        do { return try object.toMany(key).map { try T.entity($0) } } catch { deferError(error); return [] }
    }

    public func setToMany<T: TypedEntity>(_ key: String, _ destinations: [T]) {
        do { try object.setToMany(key, destinations.map(\.object)) } catch { deferError(error) }
    }

    public func add<T: TypedEntity>(_ destination: T, to key: String) {
        do { try object.add(destination.object, to: key) } catch { deferError(error) }
    }

    public func remove<T: TypedEntity>(_ destination: T, from key: String) {
        do { try object.remove(destination.object, from: key) } catch { deferError(error) }
    }

    @usableFromInline
    func deferError(_ error: any Error) { object.deferToNextSave(error) }
}

/// Attributes the model leaves untyped (transformable, undefined) read as `Value`.
extension Value: ValueConvertible {
    @inlinable public var attributeValue: Value { self }
    @inlinable public init?(attributeValue v: Value) { self = v }
}

/// An optional Swift value is nil for `.null`.
extension Optional: ValueConvertible where Wrapped: ValueConvertible {
    @inlinable public var attributeValue: Value { self?.attributeValue ?? .null }
    @inlinable public init?(attributeValue v: Value) {
        if v.isNull { self = .none; return }
        guard let w = Wrapped(attributeValue: v) else { return nil }
        self = .some(w)
    }
}
