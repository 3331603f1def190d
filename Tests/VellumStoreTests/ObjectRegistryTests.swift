import Foundation
import Testing
@testable import VellumStore

@Suite struct ObjectRegistryTests {
    /// Random sets, replacements and removals on several root tables — dense runs,
    /// sparse, negative and extreme keys, sub-entity IDs that equal their root's,
    /// temporary IDs — mirrored on a Dictionary keyed by ObjectID.
    @Test func behavesLikeADictionaryOfObjectIDs() throws {
        let dir = TempDir()
        let store = try Fixtures.openShop(dir)
        let context = try ManagedObjectContext(store: store)
        let seed = SeededRandom.seedFromEnvironment()
        var rng = SeededRandom(seed: seed)
        let entities = ["Provider", "Product", "Item", "Task", "Note"].map { store.model.entity(named: $0)! }
        let registry = ObjectRegistry()
        var model: [ObjectID: ManagedObject] = [:]

        func randomKey() -> ObjectID.Key {
            switch Int.random(in: 0..<10, using: &rng) {
            case 0: return .temporary(UUID())
            case 1: return .permanent(Int64.random(in: Int64.min...Int64.max, using: &rng))
            case 2: return .permanent(Int64.random(in: -200...0, using: &rng))
            case 3: return .permanent([Int64.max, Int64.min, 0, 63, 64, -1, -64, -65][Int.random(in: 0..<8, using: &rng)])
            default: return .permanent(Int64.random(in: 1...3_000, using: &rng))  // dense: full pages
            }
        }
        func randomID() -> (Entity, ObjectID) {
            if !model.isEmpty && Int.random(in: 0..<3, using: &rng) == 0 {
                let id = model.keys.randomElement(using: &rng)!
                return (store.model.entity(named: id.entityName)!, id)
            }
            let e = entities.randomElement(using: &rng)!
            let key = randomKey()
            let id = ObjectID(scope: store.idScope(for: e), key: key)
            return (e, id)
        }

        for step in 0..<30_000 {
            let (entity, id) = randomID()
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<5:
                let o = ManagedObject(entity: entity, objectID: id, context: context, isFault: true)
                let replaced = registry.updateValue(o, forKey: id)
                #expect(replaced === model.updateValue(o, forKey: id), "seed \(seed) step \(step)")
            case 5..<8:
                registry[id] = nil
                model[id] = nil
            default:
                #expect(registry[id] === model[id], "seed \(seed) step \(step) \(id)")
            }
            if step % 1_999 == 0 {
                #expect(registry.count == model.count, "seed \(seed) step \(step)")
                var seen = Set<ObjectIdentifier>()
                registry.forEach { seen.insert(ObjectIdentifier($0)) }
                #expect(seen == Set(model.values.map(ObjectIdentifier.init)), "seed \(seed) step \(step)")
                for (id, o) in model { #expect(registry[id] === o, "seed \(seed) step \(step) \(id)") }
            }
        }
        #expect(Set(registry.values.map(ObjectIdentifier.init)) == Set(model.values.map(ObjectIdentifier.init)))
        registry.removeAll()
        #expect(registry.isEmpty && registry.count == 0)
        for id in model.keys { #expect(registry[id] == nil) }
    }

    /// A sub-entity's ID and its root's ID with the same key name one object.
    @Test func subEntityAndRootIDsShareASlot() throws {
        let dir = TempDir()
        let store = try Fixtures.openShop(dir)
        let context = try ManagedObjectContext(store: store)
        let task = store.model.entity(named: "Task")!, item = store.model.entity(named: "Item")!
        let registry = ObjectRegistry()
        let asTask = ObjectID(scope: store.idScope(for: task), key: .permanent(7))
        let asItem = ObjectID(scope: store.idScope(for: item), key: .permanent(7))
        let o = ManagedObject(entity: task, objectID: asTask, context: context, isFault: true)
        registry[asTask] = o
        #expect(registry[asItem] === o)
        registry[asItem] = nil
        #expect(registry[asTask] == nil)
    }
}
