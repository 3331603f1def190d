import Foundation
import Testing
@testable import VellumStore

@Suite struct TypedAccessTests {
    struct Dimensions: Codable, Equatable { var width: Double; var height: Double }

    @Test func typedGettersAndSetters() throws {
        let model = try ModelBuilder().entity("Thing") {
            $0.attribute("name", .string)
            $0.attribute("count", .integer32)
            $0.attribute("price", .double)
            $0.attribute("when", .date)
            $0.attribute("size", .transformable)
        }.build()
        let store = try PersistentStore(url: nil, model: model, options: .inMemory)
        let ctx = try ManagedObjectContext(store: store)
        let t = try ctx.insert("Thing")
        try t.set("name", "lamp")
        try t.set("count", 3)
        try t.set("price", 2.5)
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        try t.set("when", now)
        try t.setTransformable("size", Dimensions(width: 2, height: 3))
        try ctx.save()
        let reader = try ManagedObjectContext(store: store)
        let fresh = try reader.existingObject(with: t.objectID)
        #expect(try fresh.get("name", as: String.self) == "lamp")
        #expect(try fresh.get("count", as: Int.self) == 3)
        #expect(try fresh.get("price", as: Double.self) == 2.5)
        #expect(try fresh.get("when", as: Date.self) == now)
        #expect(try fresh.transformable("size", as: Dimensions.self) == Dimensions(width: 2, height: 3))
        #expect(throws: StoreError.self) { try fresh.get("count", as: String.self) }
        #expect(throws: StoreError.self) { try fresh.set("count", "three") }
        try fresh.set("name", String?.none)
        #expect(try fresh.get("name", as: String.self) == nil)
    }
}
