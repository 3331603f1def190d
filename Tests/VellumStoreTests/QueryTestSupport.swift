import Foundation
import Testing
@testable import VellumStore

// Foundation has its own QueryPredicate, QueryExpression and QuerySortDescriptor; use Vellum's here.
typealias QueryPredicate = VellumStore.QueryPredicate
typealias QueryExpression = VellumStore.QueryExpression
typealias QuerySortDescriptor = VellumStore.QuerySortDescriptor

/// A plain object graph for in-memory evaluation.
final class TestObject: KeyValueSource {
    let entity: Entity
    let pk: Int64
    var attributes: [String: Value] = [:]
    var toOne: [String: TestObject] = [:]
    var toMany: [String: [TestObject]] = [:]

    init(entity: Entity, pk: Int64) {
        self.entity = entity
        self.pk = pk
    }

    var sourceEntity: Entity { entity }
    var sourceObjectID: ObjectID {
        ObjectID(entityName: entity.name, rootName: entity.rootName, key: .permanent(pk), storeIdentifier: "test")
    }
    func attributeValue(forKey key: String) throws -> Value { attributes[key] ?? .null }
    func toOneValue(forKey key: String) throws -> TestObject? { toOne[key] }
    func toManyValue(forKey key: String) throws -> [TestObject] { toMany[key] ?? [] }
}

/// The query tests' name for the shared seeded generator.
typealias SeededGenerator = SeededRandom

enum QueryFixtures {
    /// Owner 1—* Item *—* Tag.
    static let model: ManagedObjectModel = {
        try! ModelBuilder()
            .entity("Owner") {
                $0.attribute("name", .string)
                $0.attribute("rank", .integer64)
                $0.toMany("items", "Item", inverse: "owner")
            }
            .entity("Item") {
                $0.attribute("name", .string)
                $0.attribute("note", .string)
                $0.attribute("qty", .integer64)
                $0.attribute("price", .double)
                $0.attribute("cost", .decimal)
                $0.attribute("when", .date)
                $0.attribute("flag", .boolean)
                $0.attribute("scratch", .string, transient: true)
                $0.toOne("owner", "Owner", inverse: "items")
                $0.toMany("tags", "Tag", inverse: "items")
            }
            .entity("Tag") {
                $0.attribute("name", .string)
                $0.attribute("weight", .integer32)
                $0.toMany("items", "Item", inverse: "tags")
            }
            .build()
    }()

    static var item: Entity { model.entity(named: "Item")! }
}

/// The syntax error a parse threw (nil when it threw none).
func parseError<T>(_ body: () throws -> T) -> ParseError? {
    do { _ = try body(); return nil } catch { return (error as? StoreError)?.parseError }
}
