import Foundation
import VellumStore

// docs/guide.md section 9, pattern 1, as written there.
final class ShopStack: Sendable {
    let container: PersistentContainer

    init(url: URL) throws { container = try PersistentContainer(model: try shopModel(), storeURL: url) }

    /// Background work, one block at a time, in order.
    func perform(_ work: @escaping @Sendable (ManagedObjectContext) throws -> Void) async throws {
        try await container.enqueue(work)
    }

    @MainActor var mainContext: ManagedObjectContext { container.viewContext }
}
