import Foundation
import VellumStore

// docs/guide.md section 9, pattern 4, as written there.
struct Repository<Entity: TypedEntity> {
    let context: ManagedObjectContext

    func create(_ fill: (Entity) -> Void) throws -> Entity {
        let entity = try Entity(context: context)
        fill(entity)
        try context.save()
        return entity
    }

    func all(where predicate: TypedPredicate<Entity>? = nil) throws -> [Entity] {
        try context.fetch(Entity.self, where: predicate)
    }

    func update(_ entity: Entity, _ change: (Entity) -> Void) throws {
        change(entity)
        try context.save()
    }

    func delete(_ entity: Entity) throws {
        try context.delete(entity.object)
        try context.save()
    }
}
