import Foundation

// One-line blocks read naturally: `try await container.enqueue { ctx in try ctx.insert("Tea", …) }`.
// The block's last expression is a managed object, which cannot leave its queue; these
// overloads run the block, drop that value and return nothing. When the value is
// `Sendable` the returning (and `@discardableResult`) overloads are chosen instead.

extension PersistentContainer {
    /// `enqueue` for a block whose value is not `Sendable`: the value is dropped.
    public func enqueue<T>(_ block: @escaping @Sendable (ManagedObjectContext) throws -> T) async throws {
        let _: Bool = try await enqueue { ctx in _ = try block(ctx); return true }
    }
}

extension BackgroundContext {
    /// `perform` for a block whose value is not `Sendable`: the value is dropped.
    public func perform<T>(_ body: @escaping @Sendable (ManagedObjectContext) throws -> T) async throws {
        let _: Bool = try await perform { ctx in _ = try body(ctx); return true }
    }
}
