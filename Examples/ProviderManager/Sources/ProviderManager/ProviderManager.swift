import Foundation
import VellumStore

// docs/guide.md section 9, pattern 2, as written there.
struct ProviderManager: Sendable {
    let container: PersistentContainer

    func add(_ name: String) async throws {
        try await container.enqueue { ctx in try ctx.insert("Provider", values: ["name": .string(name)]) }
    }

    func names() async throws -> [String] {
        try await container.enqueue { ctx in
            try ctx.fetch("Provider", sortedBy: [QuerySortDescriptor("name")]).map { try $0["name"].stringValue ?? "" }
        }
    }
}
