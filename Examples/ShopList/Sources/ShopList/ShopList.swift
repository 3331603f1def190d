import Foundation
import VellumStore

// docs/guide.md section 9, pattern 3, as written there.
func addUniqueProvider(_ name: String, to container: PersistentContainer) async throws -> Bool {
    try await container.enqueue { ctx in
        guard try ctx.isUnique(entity: "Provider", attribute: "name", value: .string(name)) else { return false }
        try ctx.insert("Provider", values: ["name": .string(name)])
        return true
    }
}

@MainActor
func providerList(in container: PersistentContainer) throws -> ResultsController {
    let list = ResultsController(fetchRequest: FetchRequest(entityName: "Provider", sortDescriptors: [QuerySortDescriptor("name")]),
                                 context: container.viewContext)
    try list.performFetch()
    return list
}
