import Foundation

/// A type generated for one entity (`vellum generate`, or the `VellumModelPlugin`
/// at build time): a typed view of a `ManagedObject`, like the `NSManagedObject`
/// subclasses Xcode generates. Properties are typed with the model's optionality;
/// setters do not throw — a write that cannot apply is thrown by the next `save()`.
///
/// An entity of an inheritance hierarchy is a class (sub-entities are subclasses); an
/// entity outside any hierarchy is a struct holding only its object, so a fetch of N of
/// them allocates nothing beyond the N objects. Either way a value is a reference to the
/// record: copies read and write the same object (struct setters are `nonmutating`).
///
/// Equal and hashed by the object they wrap (identity, as `NSManagedObject`): two values
/// read for one object — `book.author` twice — are equal and one element of a `Set`,
/// before and after the save that gives the object its permanent ID.
public protocol TypedEntity: Hashable {
    /// The model's entity name (subclasses, for sub-entities, override it).
    static var entityName: String { get }
    /// The key names of a key path of this type (`\Book.author?.name` → `["author", "name"]`),
    /// or nil for a key path that is not a modelled property.
    static func keyNames(of keyPath: AnyKeyPath) -> [String]?
    /// The object this value reads and writes.
    var object: ManagedObject { get }
    /// Wraps an object of this entity (or a sub-entity); `entity(_:)` checks the kind.
    init(object: ManagedObject)
}

extension TypedEntity {
    /// Inserts a new object of this entity into `context`, as Core Data's `Book(context:)`.
    public init(context: ManagedObjectContext) throws(StoreError) {
        let entityName = Self.entityName
        self.init(object: try StoreError.nesting { try context.insert(entityName) })
    }

    /// The object as `T` when its entity is `T`'s or a sub-entity of it.
    public func `as`<T: TypedEntity>(_ type: T.Type) -> T? {
        object.entity.isKind(of: T.entityName) ? T(object: object) : nil
    }

    public var objectID: ObjectID { object.objectID }
    public var context: ManagedObjectContext? { object.context }
}

extension TypedEntity {
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.object === rhs.object }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(object)) }
}

extension TypedEntity {
    /// An object as this type; a `StoreError` naming both entities when it is of another kind.
    public static func entity(_ object: ManagedObject) throws(StoreError) -> Self {
        guard object.entity.isKind(of: entityName) else {
            throw StoreError.invalidOperation("\(object.objectID.uriString) is a \(object.entity.name), not a \(entityName)")
        }
        return Self(object: object)
    }
}
