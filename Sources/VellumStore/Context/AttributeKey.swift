import Foundation

/// An attribute's name as the key of `ManagedObject`'s settable subscript
/// (`product["price"] = 3.5`). A distinct type so that reading `try product["price"]`
/// keeps its throwing getter: a string literal prefers `String`, and only an
/// assignment needs the settable subscript.
public struct AttributeKey: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    public var name: String
    public init(_ name: String) { self.name = name }
    public init(stringLiteral name: String) { self.name = name }
    public var description: String { name }
}
