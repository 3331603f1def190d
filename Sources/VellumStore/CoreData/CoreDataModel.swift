import Foundation

/// A model as Core Data compiled it: Vellum's `ManagedObjectModel` plus what Core Data
/// keeps beside it (type codes, transformer names, derived expressions, hash modifiers).
public struct CoreDataModel: Sendable {
    public let model: ManagedObjectModel
    /// Per entity name; entities and properties missing here have default details.
    public let details: [String: CoreDataEntityDetails]

    public init(model: ManagedObjectModel, details: [String: CoreDataEntityDetails] = [:]) {
        self.model = model
        self.details = details
    }

    func details(entity: String, property: String) -> CoreDataPropertyDetails {
        details[entity]?.properties[property] ?? CoreDataPropertyDetails()
    }
}
