import Foundation

/// Swift types that map to attribute values, for typed access:
/// `try product.get("price", as: Double.self)`, `try product.set("price", 3.5)`.
public protocol ValueConvertible {
    var attributeValue: Value { get }
    /// The Swift value for an attribute value, or nil when the kinds do not match.
    init?(attributeValue: Value)
}

extension String: ValueConvertible {
    @inlinable public var attributeValue: Value { .string(self) }
    @inlinable public init?(attributeValue v: Value) { guard case .string(let s) = v else { return nil }; self = s }
}
extension Int: ValueConvertible {
    @inlinable public var attributeValue: Value { .integer(Int64(self)) }
    @inlinable public init?(attributeValue v: Value) { guard case .integer(let i) = v, let n = Int(exactly: i) else { return nil }; self = n }
}
extension Int64: ValueConvertible {
    @inlinable public var attributeValue: Value { .integer(self) }
    @inlinable public init?(attributeValue v: Value) { guard case .integer(let i) = v else { return nil }; self = i }
}
extension Int32: ValueConvertible {
    @inlinable public var attributeValue: Value { .integer(Int64(self)) }
    @inlinable public init?(attributeValue v: Value) { guard case .integer(let i) = v, let n = Int32(exactly: i) else { return nil }; self = n }
}
extension Int16: ValueConvertible {
    @inlinable public var attributeValue: Value { .integer(Int64(self)) }
    @inlinable public init?(attributeValue v: Value) { guard case .integer(let i) = v, let n = Int16(exactly: i) else { return nil }; self = n }
}
extension Double: ValueConvertible {
    @inlinable public var attributeValue: Value { .double(self) }
    @inlinable public init?(attributeValue v: Value) {
        switch v {
        case .double(let d): self = d
        case .integer(let i): self = Double(i)
        default: return nil
        }
    }
}
extension Float: ValueConvertible {
    @inlinable public var attributeValue: Value { .double(Double(self)) }
    @inlinable public init?(attributeValue v: Value) { guard let d = Double(attributeValue: v) else { return nil }; self = Float(d) }
}
extension Bool: ValueConvertible {
    @inlinable public var attributeValue: Value { .bool(self) }
    @inlinable public init?(attributeValue v: Value) { guard case .bool(let b) = v else { return nil }; self = b }
}
extension Date: ValueConvertible {
    @inlinable public var attributeValue: Value { .date(self) }
    @inlinable public init?(attributeValue v: Value) { guard case .date(let d) = v else { return nil }; self = d }
}
extension Decimal: ValueConvertible {
    @inlinable public var attributeValue: Value { .decimal(self) }
    @inlinable public init?(attributeValue v: Value) { guard case .decimal(let d) = v else { return nil }; self = d }
}
extension Data: ValueConvertible {
    @inlinable public var attributeValue: Value { .data(self) }
    @inlinable public init?(attributeValue v: Value) { guard case .data(let d) = v else { return nil }; self = d }
}
extension UUID: ValueConvertible {
    @inlinable public var attributeValue: Value { .uuid(self) }
    @inlinable public init?(attributeValue v: Value) { guard case .uuid(let u) = v else { return nil }; self = u }
}
extension URL: ValueConvertible {
    @inlinable public var attributeValue: Value { .uri(self) }
    @inlinable public init?(attributeValue v: Value) { guard case .uri(let u) = v else { return nil }; self = u }
}

extension ManagedObject {
    /// The attribute's value as `T`; nil when it is nil. A value of another kind
    /// (asking an integer attribute for a String) throws, naming the key.
    /// Inlinable, as are the conversions: generated entities call it for every property
    /// read, and specialized in the caller's module it costs what `value(forKey:)` does.
    @inlinable
    public func get<T: ValueConvertible>(_ key: String, as type: T.Type = T.self) throws -> T? {
        let v = try value(forKey: key)
        if v.isNull { return nil }
        guard let typed = T(attributeValue: v) else { throw kindMismatch(key, v, T.self) }
        return typed
    }

    /// What generated getters call (through `TypedEntity.attribute(_:at:as:)`): it never
    /// throws — a failed read gives nil and the context's next `save()` throws the reason.
    /// It lives on the object rather than the generated type, and a wrong kind is
    /// deferred rather than thrown, so the specialized read has no error boxing. Inlined
    /// whole: a call to a non-inlined read (the object borrowed, no retain per read) was
    /// measured dearer, 692 M instructions against 674 M in `fetch-100k-typed`.
    @inlinable
    public func generatedValue<T: ValueConvertible>(_ key: String, at index: Int, as type: T.Type = T.self) -> T? {
        let v: Value
        do { v = try value(forKey: key, expectedIndex: index) } catch { deferToNextSave(error); return nil }
        if v.isNull { return nil }
        guard let typed = T(attributeValue: v) else { deferToNextSave(kindMismatch(key, v, T.self)); return nil }
        return typed
    }

    /// What generated setters call: errors go to the context's next `save()`.
    @inlinable
    public func setGeneratedValue<T: ValueConvertible>(_ key: String, at index: Int, _ value: T?) {
        do { try setValue(value?.attributeValue ?? .null, forKey: key, expectedIndex: index) } catch { deferToNextSave(error) }
    }

    /// Keeps an error of a non-throwing typed access for the owning context's next `save()`.
    @usableFromInline
    func deferToNextSave(_ error: any Error) {
        context?.deferredErrors.append(StoreError(nesting: error))
    }

    @usableFromInline
    func kindMismatch(_ key: String, _ v: Value, _ type: Any.Type) -> StoreError {
        StoreError.validation(ValidationFailure(entity: entity.name, key: key,
            reason: "holds a \(v.kindName), not a \(type)", objectURI: objectID.uriString))
    }

    /// Sets the attribute from a Swift value (nil clears it), with the same type checks as `setValue`.
    @inlinable
    public func set<T: ValueConvertible>(_ key: String, _ value: T?) throws {
        try setValue(value?.attributeValue ?? .null, forKey: key)
    }

    /// A transformable attribute decoded from its JSON; JSON that is not a `T` throws a
    /// validation error naming the key and the decoder's reason.
    public func transformable<T: Decodable>(_ key: String, as type: T.Type = T.self) throws -> T? {
        guard case .string(let json) = try value(forKey: key) else { return nil }
        do { return try JSONDecoder().decode(T.self, from: Data(json.utf8)) } catch {
            throw StoreError.validation(ValidationFailure(entity: entity.name, key: key,
                reason: "holds JSON that is not a \(T.self): \(CodingErrorText.describe(error))", objectURI: objectID.uriString))
        }
    }

    /// Stores an `Encodable` value as a transformable attribute's JSON (sorted keys: the
    /// same value is always the same text, so a rewrite is no change).
    public func setTransformable<T: Encodable>(_ key: String, _ value: T?) throws {
        guard let value else { return try setValue(.null, forKey: key) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data: Data
        do { data = try encoder.encode(value) } catch {
            throw StoreError.validation(ValidationFailure(entity: entity.name, key: key,
                reason: "cannot be stored as JSON: \(CodingErrorText.describe(error))", objectURI: objectID.uriString))
        }
        try setValue(.string(String(decoding: data, as: UTF8.self)), forKey: key)
    }
}
