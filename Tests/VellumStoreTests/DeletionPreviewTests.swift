import Foundation
import Testing
import VellumStore
import VellumTestSupport

/// `deletionPreview(of:)` counts what a delete would do before anything is deleted.
@Suite struct DeletionPreviewTests {
    @Test(arguments: StoreEngine.allCases) func cascadesAreCountedAndDenialsNamedWithoutDeletingAnything(_ engine: StoreEngine) throws {
        let dir = TempDir()
        let shop = try engine.open(Fixtures.shopModel(), in: dir)
        let store = shop.store
        let ctx = try ManagedObjectContext(store: store)
        let acme = try ctx.insert("Provider", values: ["name": .string("Acme")])
        let tea = try ctx.insert("Product", values: ["name": .string("Tea")])
        let coffee = try ctx.insert("Product", values: ["name": .string("Coffee")])
        for product in [tea, tea, coffee] { try product.add(ctx.insert("Image", values: [:]), to: "images") }
        try tea.setToOne("provider", acme)
        try coffee.setToOne("provider", acme)
        try ctx.save()

        let products = try ctx.deletionPreview(of: [tea.objectID, coffee.objectID])
        #expect(products.deleted == ["Product": 2, "Image": 3] && products.cascaded == ["Image": 3])
        #expect(products.denials.isEmpty && products.missing == 0)

        let provider = try ctx.deletionPreview(of: [acme.objectID])
        #expect(provider.denials == [.init(entity: "Provider", relationship: "products", objects: 1, related: 2)])
        // With its products, nothing holds the provider back.
        #expect(try ctx.deletionPreview(of: [acme.objectID, tea.objectID, coffee.objectID]).denials.isEmpty)
        #expect(try ctx.count(FetchRequest(entityName: "Image")) == 3 && !tea.isDeleted)
    }

    @Test(arguments: StoreEngine.allCases) func objectsAnotherWriterDeletedCountAsMissing(_ engine: StoreEngine) throws {
        let dir = TempDir()
        let shop = try engine.open(Fixtures.shopModel(), in: dir)
        let store = shop.store
        let ctx = try ManagedObjectContext(store: store)
        let tag = try ctx.insert("Tag", values: ["name": .string("t")])
        try ctx.save()
        let other = try ManagedObjectContext(store: store)
        try other.delete(other.existingObject(with: tag.objectID))
        try other.save()
        let preview = try ManagedObjectContext(store: store).deletionPreview(of: [tag.objectID])
        #expect(preview.missing == 1 && preview.deletedCount == 0)
    }

    /// Model-based: on random shop graphs, the preview says exactly what the delete then does —
    /// refused when it names a denial, else the per-entity counts that leave the store.
    @Test(arguments: StoreEngine.allCases, [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64]) func randomGraphsPreviewWhatTheDeleteDoes(_ engine: StoreEngine, seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let dir = TempDir()
        let store = try engine.open(Fixtures.shopModel(), in: dir).store
        let build = try ManagedObjectContext(store: store)
        let providers = try (0..<4).map { try build.insert("Provider", values: ["name": .string("p\($0)")]) }
        let tags = try (0..<3).map { try build.insert("Tag", values: ["name": .string("t\($0)")]) }
        var products: [ManagedObject] = []
        for i in 0..<12 {
            let product = try build.insert("Product", values: ["name": .string("n\(i)")])
            if Bool.random(using: &rng) { try product.setToOne("provider", providers.randomElement(using: &rng)!) }
            for _ in 0..<Int.random(in: 0...3, using: &rng) { try product.add(build.insert("Image", values: [:]), to: "images") }
            if Bool.random(using: &rng) { try product.add(tags.randomElement(using: &rng)!, to: "tags") }
            products.append(product)
        }
        try build.save()
        let all = providers + tags + products
        let entities = ["Provider", "Product", "Image", "Tag"]
        for _ in 0..<6 {
            let asked = all.filter { _ in Int.random(in: 0..<5, using: &rng) == 0 }.map(\.objectID)
            let ctx = try ManagedObjectContext(store: store)
            let before = try entities.map { try ctx.count(FetchRequest(entityName: $0)) }
            let preview = try ctx.deletionPreview(of: asked)
            for id in asked { try? ctx.delete(ctx.existingObject(with: id)) }
            do {
                try ctx.save()
                #expect(preview.denials.isEmpty, "seed \(seed): saved although the preview named \(preview.denials)")
                let after = try ManagedObjectContext(store: store)
                for (i, entity) in entities.enumerated() {
                    #expect(try before[i] - after.count(FetchRequest(entityName: entity)) == preview.deleted[entity, default: 0], "seed \(seed) \(entity)")
                }
            } catch StoreError.deleteDenied(let entity, let relationship, _) {
                #expect(preview.denials.contains { $0.entity == entity && $0.relationship == relationship }, "seed \(seed)")
            }
        }
    }
}
