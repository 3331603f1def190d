import Foundation
import Testing
@testable import VellumStore

/// `ObjectIDSet` (a save event's IDs, runs of consecutive keys kept as ranges) behaves
/// exactly as `Set<ObjectID>`: checked operation by operation against one.
@Suite("Object ID set")
struct ObjectIDSetTests {
    private static let store = "object-id-set-tests"
    /// Two roots, a sub-entity of the first (its IDs equal the root's with the same key), and temporaries.
    private static let scopes = [
        ObjectIDScope.intern(entityName: "Animal", rootName: "Animal", storeIdentifier: store),
        ObjectIDScope.intern(entityName: "Dog", rootName: "Animal", storeIdentifier: store),
        ObjectIDScope.intern(entityName: "Plant", rootName: "Plant", storeIdentifier: store),
    ]

    private static func randomID(using rng: inout SplitMix64) -> ObjectID {
        let scope = scopes.randomElement(using: &rng)!
        if Int.random(in: 0..<12, using: &rng) == 0 { return ObjectID(scope: scope, key: .temporary(UUID())) }
        // Mostly a small key range, so that runs form, split and meet; sometimes the ends of Int64.
        let key: Int64 = switch Int.random(in: 0..<20, using: &rng) {
        case 0: [Int64.min, .min + 1, .max - 1, .max].randomElement(using: &rng)!
        default: Int64.random(in: -5...60, using: &rng)
        }
        return ObjectID(scope: scope, key: .permanent(key))
    }

    private static func randomSet(using rng: inout SplitMix64) -> (ObjectIDSet, Set<ObjectID>) {
        var ids: [ObjectID] = []
        if Bool.random(using: &rng) {
            // A save's shape: a stretch of consecutive keys of one entity.
            let scope = scopes.randomElement(using: &rng)!
            let start = Int64.random(in: -5...40, using: &rng)
            ids = (start..<start + Int64.random(in: 0...20, using: &rng)).map { ObjectID(scope: scope, key: .permanent($0)) }
        }
        for _ in 0..<Int.random(in: 0...8, using: &rng) { ids.append(randomID(using: &rng)) }
        ids.shuffle(using: &rng)
        return (ObjectIDSet(ids), Set(ids))
    }

    /// Members, count, iteration (each member once, with the entity it was inserted with) and equality.
    private static func check(_ set: ObjectIDSet, _ model: Set<ObjectID>, _ step: Int, seed: UInt64) {
        #expect(set.count == model.count, "step \(step), seed \(seed)")
        #expect(set.isEmpty == model.isEmpty, "step \(step), seed \(seed)")
        let listed = Array(set)
        #expect(listed.count == model.count, "step \(step), seed \(seed): iteration listed \(listed.count)")
        #expect(Set(listed) == model, "step \(step), seed \(seed)")
        for id in model {
            let index = model.firstIndex(of: id)!
            #expect(set.contains(id), "step \(step), seed \(seed): \(id) missing")
            // The member kept is the one the model keeps (the first inserted of equal IDs).
            #expect(listed.first { $0 == id }?.entityName == model[index].entityName, "step \(step), seed \(seed): \(id)")
        }
        #expect(set == ObjectIDSet(model), "step \(step), seed \(seed)")
        #expect(set.hashValue == ObjectIDSet(Array(model).shuffled()).hashValue, "step \(step), seed \(seed)")
    }

    @Test func randomOperationsMatchASetOfObjectIDs() {
        let seed = SplitMix64.seedFromEnvironment()
        var rng = SplitMix64(seed: seed)
        for _ in 0..<40 {
            var set = ObjectIDSet(), model = Set<ObjectID>()
            for step in 0..<150 {
                switch Int.random(in: 0..<9, using: &rng) {
                case 0, 1, 2:
                    let id = Self.randomID(using: &rng)
                    let (a, b) = (set.insert(id), model.insert(id))
                    #expect(a.inserted == b.inserted && a.memberAfterInsert.entityName == b.memberAfterInsert.entityName,
                            "step \(step), seed \(seed): insert \(id)")
                case 3:
                    // Ascending keys of one entity: the bulk-save path that extends runs.
                    let scope = Self.scopes.randomElement(using: &rng)!
                    let start = Int64.random(in: -5...60, using: &rng)
                    for key in start..<start + Int64.random(in: 1...10, using: &rng) {
                        let id = ObjectID(scope: scope, key: .permanent(key))
                        #expect(set.insert(id).inserted == model.insert(id).inserted, "step \(step), seed \(seed)")
                    }
                case 4:
                    let id = Bool.random(using: &rng) ? (model.randomElement(using: &rng) ?? Self.randomID(using: &rng)) : Self.randomID(using: &rng)
                    let (a, b) = (set.remove(id), model.remove(id))
                    #expect(a == b && a?.entityName == b?.entityName, "step \(step), seed \(seed): remove \(id)")
                case 5:
                    let (other, otherModel) = Self.randomSet(using: &rng)
                    set.formUnion(other); model.formUnion(otherModel)
                case 6:
                    let (other, otherModel) = Self.randomSet(using: &rng)
                    #expect(set.isSubset(of: other) == model.isSubset(of: otherModel), "step \(step), seed \(seed)")
                    #expect(set.isDisjoint(with: other) == model.isDisjoint(with: otherModel), "step \(step), seed \(seed)")
                    set.subtract(other); model.subtract(otherModel)
                case 7:
                    let (other, otherModel) = Self.randomSet(using: &rng)
                    let (other2, other2Model) = Self.randomSet(using: &rng)
                    set.formUnion(other2); model.formUnion(other2Model)
                    set.formIntersection(other.union(set.subtracting(other2))); model.formIntersection(otherModel.union(model.subtracting(other2Model)))
                default:
                    let (other, otherModel) = Self.randomSet(using: &rng)
                    set.formSymmetricDifference(other); model.formSymmetricDifference(otherModel)
                }
                Self.check(set, model, step, seed: seed)
            }
        }
    }

    /// The reason the type exists: a bulk save's keys are one run, whatever their number.
    @Test func consecutiveKeysOfOneEntityAreOneRun() {
        var set = ObjectIDSet()
        for key in Int64(1)...100_000 { set.insert(ObjectID(scope: Self.scopes[0], key: .permanent(key))) }
        #expect(set.count == 100_000)
        #expect(set.runs.count == 1)
        #expect(set.contains(ObjectID(scope: Self.scopes[1], key: .permanent(50_000))), "a sub-entity's ID equals its root's")
        #expect(!set.contains(ObjectID(scope: Self.scopes[2], key: .permanent(50_000))))
        // Built from keys in any order: sorted first, so still one run.
        #expect(ObjectIDSet(Array(set).shuffled()).runs.count == 1)
        // Interleaved entities, as a save of two kinds of objects: one run each.
        var mixed = ObjectIDSet()
        for key in Int64(1)...1_000 {
            mixed.insert(ObjectID(scope: Self.scopes[0], key: .permanent(key)))
            mixed.insert(ObjectID(scope: Self.scopes[2], key: .permanent(key)))
        }
        #expect(mixed.count == 2_000 && mixed.runs.count == 2)
    }
}
