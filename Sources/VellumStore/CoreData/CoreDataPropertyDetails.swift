import Foundation

/// What Core Data's compiled model says about a property beyond Vellum's description:
/// kept for the version hash and for writing the model back out.
public struct CoreDataPropertyDetails: Sendable, Hashable {
    /// Core Data's `NSAttributeType` code (100 Int16 … 2100 Composite), nil for relationships.
    public var attributeTypeCode: Int32?
    public var valueTransformerName: String?
    public var attributeValueClassName: String?
    /// A derived attribute's expression (`count:(pages)`).
    public var derivationExpression: String?
    public var allowsExternalStorage = false
    public var isReadOnly = false
    public var versionHashModifier: String?

    public init() {}
}

/// An entity's compiled-model details: its class name, hash modifier and its own
/// properties' details by name.
public struct CoreDataEntityDetails: Sendable, Hashable {
    public var className: String?
    public var versionHashModifier: String?
    public var properties: [String: CoreDataPropertyDetails] = [:]

    public init() {}
}
