import Foundation

/// One section of a results controller's contents: a name (the section key's
/// value as text; nil for objects whose key is nil, distinct from "") and the
/// IDs of its objects in order. An unsectioned controller has one section named "".
public struct ResultsSection: Sendable, Hashable {
    public var name: String?
    public var objectIDs: [ObjectID]
    public var numberOfObjects: Int { objectIDs.count }

    public init(name: String?, objectIDs: [ObjectID]) {
        self.name = name
        self.objectIDs = objectIDs
    }

    /// The section's objects, loaded through `context` (faults are fired in one query).
    public func objects(in context: ManagedObjectContext) throws -> [ManagedObject] {
        let objects = try objectIDs.map { try context.object(with: $0) }
        try context.loadFaults(objects)
        return objects
    }
}
