import Foundation
import Testing
@testable import VellumStore

/// Random insert/update/delete/save/rollback sequences against a context,
/// checked after every save and rollback against a plain model of the rows,
/// on both engines (`StoreEngine`).
@Suite struct ContextRandomizedTests {
    struct Row: Equatable { var name: String; var price: Double?; var provider: Int64? }

    @Test(arguments: StoreEngine.allCases) func randomOperationsMatchModel(_ engine: StoreEngine) throws {
        let seed = SeededRandom.seedFromEnvironment()
        var rng = SeededRandom(seed: seed)
        let dir = TempDir()
        let store = try engine.open(Fixtures.shopModel(), in: dir).store
        let ctx = try ManagedObjectContext(store: store)
        // Providers are fixed; products change at random.
        var providers: [ManagedObject] = []
        for i in 0..<3 { providers.append(try ctx.insert("Provider", values: ["name": .string("prov\(i)")])) }
        try ctx.save()
        let providerKeys = providers.map { $0.objectID.primaryKey! }

        var saved: [Int64: Row] = [:]           // what the store must hold
        var live: [ManagedObject] = try ctx.fetch("Product")
        var pending: [ObjectIdentifier: Row] = [:]  // expected rows of live objects (saved or not)

        func row(of o: ManagedObject) throws -> Row {
            Row(name: try o["name"].stringValue ?? "", price: try o["price"].doubleValue,
                provider: try o.toOne("provider")?.objectID.primaryKey)
        }
        func checkStore() throws {
            let fresh = try ManagedObjectContext(store: store)
            var actual: [Int64: Row] = [:]
            for o in try fresh.fetch("Product") { actual[o.objectID.primaryKey!] = try row(of: o) }
            #expect(actual == saved, "seed \(seed)")
            // Inverse side agrees too.
            for (i, p) in providerKeys.enumerated() {
                let products = try fresh.existingObject(with: providers[i].objectID).toMany("products").compactMap(\.objectID.primaryKey)
                #expect(Set(products) == Set(saved.filter { $0.value.provider == p }.keys), "seed \(seed)")
            }
        }

        for step in 0..<2000 {
            let op = Int.random(in: 0..<100, using: &rng)
            switch op {
            case 0..<30:
                let o = try ctx.insert("Product", values: ["name": .string("p\(step)")])
                if Bool.random(using: &rng) { try o.setToOne("provider", providers.randomElement(using: &rng)!) }
                live.append(o)
                pending[ObjectIdentifier(o)] = try row(of: o)
            case 30..<60 where !live.isEmpty:
                let o = live.randomElement(using: &rng)!
                if Bool.random(using: &rng) {
                    try o.setValue(.double(Double(Int.random(in: 0..<1000, using: &rng))), forKey: "price")
                } else {
                    try o.setToOne("provider", Bool.random(using: &rng) ? nil : providers.randomElement(using: &rng)!)
                }
                pending[ObjectIdentifier(o)] = try row(of: o)
            case 60..<70 where !live.isEmpty:
                let i = Int.random(in: 0..<live.count, using: &rng)
                try ctx.delete(live[i])
                pending[ObjectIdentifier(live[i])] = nil
                live.remove(at: i)
            case 70..<85:
                try ctx.save()
                saved = [:]
                for o in live { saved[o.objectID.primaryKey!] = try row(of: o) }
                #expect(live.allSatisfy { pending[ObjectIdentifier($0)] == (try? row(of: $0)) }, "seed \(seed)")
                try checkStore()
            case 85..<95:
                ctx.rollback()
                live = try ctx.fetch("Product")
                pending = [:]
                for o in live { pending[ObjectIdentifier(o)] = try row(of: o) }
                #expect(Dictionary(uniqueKeysWithValues: try live.map { ($0.objectID.primaryKey!, try row(of: $0)) }) == saved, "seed \(seed)")
                try checkStore()
            default:
                // A fetch sees exactly the pending state.
                let fetched = try ctx.fetch("Product")
                #expect(Set(fetched.map(ObjectIdentifier.init)) == Set(live.map(ObjectIdentifier.init)), "seed \(seed) step \(step)")
            }
        }
        try ctx.save()
        saved = [:]
        for o in live { saved[o.objectID.primaryKey!] = try row(of: o) }
        try checkStore()
    }
}
