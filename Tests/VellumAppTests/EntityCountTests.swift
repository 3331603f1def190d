import Foundation
import Testing
@testable import VellumApp
import VellumStore
import VellumTerminal

/// The sidebar's entity counts follow change events: inserts and deletes (here and
/// by another writer, cascades included) recount their entity; edits count nothing.
@MainActor @Suite(.serialized) struct EntityCountTests {
    @Test func countsFollowInsertsAndDeletesFromChangeEvents() async throws {
        let s = try await SessionLiveTests().session("Task")
        #expect(s.entityCounts == [67, 200, 10, 30])
        await s.handle(.char("a"))                                  // add a Task here
        #expect(await waitUntil { s.entityCounts == [67, 200, 10, 31] })
        // Another writer inserts a product and deletes one with its images (cascade).
        let images = try await s.container.enqueue { ctx -> Int in
            _ = try ctx.insert("Product", values: ["name": .string("Later")])
            let victim = try #require(try ctx.fetch("Product", where: VellumStore.QueryPredicate(format: "images.@count > 0"), limit: 1).first)
            let n = try victim.toMany("images").count
            try ctx.delete(victim)
            return n
        }
        #expect(await waitUntil { s.entityCounts == [67 - images, 200, 10, 31] })
        // An edit by another writer changes no count.
        let seen = s.state.lastChange
        try await s.container.enqueue { ctx in
            try #require(try ctx.fetch("Task", limit: 1).first).setValue(.string("renamed"), forKey: "title")
        }
        #expect(await waitUntil { s.state.lastChange != seen })
        #expect(s.entityCounts == [67 - images, 200, 10, 31])
    }
}
