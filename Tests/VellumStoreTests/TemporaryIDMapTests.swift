import Foundation
import Testing
@testable import VellumStore

/// The store's memory of which permanent ID each saved temporary ID became
/// (`PersistentStore.permanentID(for:)`), kept compactly: a counter and a key per
/// entry, the scope once per stretch of one entity.
@Suite("Temporary ID map")
struct TemporaryIDMapTests {
    private static let scopes = ["Apple", "Pear", "Plum"].map {
        ObjectIDScope.intern(entityName: $0, rootName: $0, storeIdentifier: "temporary-id-map-tests")
    }

    /// Seeded random saves: batches of several entities, in counter order or not, extending
    /// the newest run or starting their own; every answer is checked against a dictionary.
    @Test func randomSavesResolveEveryRenamingToItsPermanentID() {
        let seed = SplitMix64.seedFromEnvironment()
        var rng = SplitMix64(seed: seed)
        let map = TemporaryIDMap(capacity: 1_000_000)
        var expected: [UUID: ObjectID] = [:]
        var unsaved: [UUID] = []
        var nextKey: Int64 = 1
        for _ in 0..<200 {
            var pairs: [(UUID, UInt64, ObjectID)] = []
            for _ in 0..<Int.random(in: 0...40, using: &rng) {
                let (uuid, counter) = TemporaryKey.next()
                if Int.random(in: 0..<10, using: &rng) == 0 { unsaved.append(uuid); continue }  // never saved
                // Stretches of one entity, as a save's inserts come.
                let scope = pairs.last.map { p in Bool.random(using: &rng) ? p.2.scope : Self.scopes.randomElement(using: &rng)! }
                    ?? Self.scopes.randomElement(using: &rng)!
                pairs.append((uuid, counter, ObjectID(scope: scope, key: .permanent(nextKey))))
                nextKey += Int64.random(in: 1...3, using: &rng)
            }
            if Int.random(in: 0..<4, using: &rng) == 0 { pairs.shuffle(using: &rng) }  // restored inserts come out of order
            var batch = TemporaryIDMap.Batch(capacity: pairs.count)
            for (uuid, counter, id) in pairs {
                batch.append(counter: counter, key: id.primaryKey!, scope: id.scope)
                expected[uuid] = id
            }
            map.record(batch)
        }
        for (uuid, id) in expected {
            let found = map.permanent(for: uuid)
            #expect(found == id && found?.entityName == id.entityName, "seed \(seed): \(uuid) became \(id), found \(String(describing: found))")
        }
        for uuid in unsaved { #expect(map.permanent(for: uuid) == nil, "seed \(seed): \(uuid) was never saved") }
        #expect(map.permanent(for: UUID()) == nil, "a temporary ID another process made is not known here")
    }

    /// Past its capacity the map forgets its oldest runs, never the newest, and never answers wrongly.
    @Test func pastItsCapacityTheOldestRunsAreForgotten() {
        let map = TemporaryIDMap(capacity: 100)
        var saves: [[(UUID, ObjectID)]] = []
        for save in 0..<5 {
            var batch = TemporaryIDMap.Batch()
            var renamed: [(UUID, ObjectID)] = []
            // Two stretches of entities, keys counting down: not a single increasing run.
            for i in 0..<40 {
                let (uuid, counter) = TemporaryKey.next()
                let id = ObjectID(scope: Self.scopes[i < 20 ? 0 : 1], key: .permanent(Int64(10_000 - save * 100 - i)))
                batch.append(counter: counter, key: id.primaryKey!, scope: id.scope)
                renamed.append((uuid, id))
            }
            // Unsorted batches start runs of their own, so trimming has runs to drop.
            map.record(save % 2 == 0 ? batch : Self.reversed(renamed))
            saves.append(renamed)
        }
        for (uuid, id) in saves.last! { #expect(map.permanent(for: uuid) == id) }
        for (uuid, id) in saves.flatMap({ $0 }) {
            if let found = map.permanent(for: uuid) { #expect(found == id) }
        }
        #expect(saves[0].allSatisfy { map.permanent(for: $0.0) == nil }, "the oldest save is forgotten")
    }

    /// A write queue's saves each extend the one run (their counters keep increasing): it
    /// must still be cut at the capacity, oldest first, or a long-running writer's map grows
    /// without bound (it did: only whole runs were ever forgotten).
    @Test func aRunEverySaveExtendsStaysWithinItsCapacity() {
        let map = TemporaryIDMap(capacity: 100)
        var saves: [[(UUID, ObjectID)]] = []
        var key: Int64 = 1
        for save in 0..<300 {
            var batch = TemporaryIDMap.Batch()
            var renamed: [(UUID, ObjectID)] = []
            for _ in 0..<(save % 3 + 1) {
                let (uuid, counter) = TemporaryKey.next()
                let id = ObjectID(scope: Self.scopes[save % 2], key: .permanent(key))
                key += 1
                batch.append(counter: counter, key: id.primaryKey!, scope: id.scope)
                renamed.append((uuid, id))
            }
            map.record(batch)
            saves.append(renamed)
            #expect(map.count <= 100, "after save \(save): \(map.count) renamings kept")
        }
        for (uuid, id) in saves.suffix(20).flatMap({ $0 }) {
            let found = map.permanent(for: uuid)
            #expect(found == id && found?.entityName == id.entityName, "a recent save's \(id) found as \(String(describing: found))")
        }
        for (uuid, id) in saves.flatMap({ $0 }) {
            if let found = map.permanent(for: uuid) { #expect(found == id && found.entityName == id.entityName) }
        }
        #expect(saves[0].allSatisfy { map.permanent(for: $0.0) == nil }, "the oldest save is forgotten")
    }

    private static func reversed(_ renamed: [(UUID, ObjectID)]) -> TemporaryIDMap.Batch {
        var batch = TemporaryIDMap.Batch()
        for (uuid, id) in renamed.reversed() {
            batch.append(counter: TemporaryKey.counter(of: uuid)!, key: id.primaryKey!, scope: id.scope)
        }
        return batch
    }
}
