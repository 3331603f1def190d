import Foundation
import Testing
@testable import VellumStore

/// A model cache of more than a hundred entities is decoded and validated on several
/// threads: the model must be the one a single thread makes, and an error must name the
/// same entity every time.
@Suite struct ModelCacheLargeDecodeTests {
    /// `count` entities in chains of four (`E0` ← `E1` ← `E2` ← `E3`, …), each archived with
    /// its inherited properties repeated, as Core Data archives them. Entities in `broken`
    /// carry an attribute of an unknown type.
    static func archive(entities count: Int, broken: Set<Int> = []) throws -> KeyedArchive {
        var objects: [PlistValue] = [.string("$null")]
        func add(_ v: PlistValue) -> PlistValue { objects.append(v); return .uid(UInt64(objects.count - 1)) }
        func cls(_ name: String) -> PlistValue { add(.dictionary(["$classname": .string(name), "$classes": .array([.string(name)])])) }
        let dictClass = cls("NSDictionary"), attributeClass = cls("NSAttributeDescription"), entityClass = cls("NSEntityDescription")
        var entityRefs: [PlistValue] = [], names: [PlistValue] = [], own: [[(String, PlistValue)]] = []
        // Objects are added before they are referenced; a parent's reference is its index.
        for i in 0..<count {
            let name = add(.string("E\(i)"))
            var mine: [(String, PlistValue)] = []
            for (j, code) in [700, 200, 900].enumerated() {
                let propertyName = "p\(i)_\(j)"
                let type = broken.contains(i) && j == 1 ? 4242 : code
                mine.append((propertyName, add(.dictionary(["NSPropertyName": add(.string(propertyName)), "NSAttributeType": .integer(Int64(type)),
                                                             "_P": .integer(j == 0 ? 2 : 0), "$class": attributeClass]))))
            }
            let isChild = i % 4 != 0
            let all = (isChild ? own[i - 1] : []) + mine
            own.append(all)
            let properties = add(.dictionary(["NS.keys": .array(all.map { add(.string($0.0)) }), "NS.objects": .array(all.map(\.1)), "$class": dictClass]))
            var fields: PlistDictionary = ["NSEntityName": name, "NSProperties": properties, "$class": entityClass]
            if isChild { fields["NSSuperentity"] = entityRefs[i - 1] }
            entityRefs.append(add(.dictionary(fields)))
            names.append(name)
        }
        let entities = add(.dictionary(["NS.keys": .array(names), "NS.objects": .array(entityRefs), "$class": dictClass]))
        let root = add(.dictionary(["NSEntities": entities, "$class": cls("NSManagedObjectModel")]))
        return try KeyedArchive(plist: .dictionary(["$objects": .array(objects), "$top": .dictionary(["root": root])]))
    }

    @Test func aLargeCacheDecodesEachEntitysOwnPropertiesWithItsInheritedOnes() throws {
        let model = try ModelCacheDecoder.decode(try Self.archive(entities: 160)).model
        #expect(model.entityNames.count == 160)
        for i in 0..<160 {
            let entity = try #require(model.entity(named: "E\(i)"))
            let own = (0..<3).map { "p\(i)_\($0)" }
            #expect(entity.declaration.attributes.map(\.name) == own, "E\(i) declares only its own")
            let lineage = (i - i % 4...i).flatMap { k in (0..<3).map { "p\(k)_\($0)" } }
            #expect(entity.attributes.map(\.name) == lineage, "E\(i) inherits root first")
            #expect(entity.declaration.attributes.map(\.type) == [.string, .integer32, .date])
            #expect(entity.declaration.attributes.map(\.isOptional) == [true, false, false])
            #expect(entity.rootName == "E\(i - i % 4)")
        }
    }

    @Test func anErrorInALargeCacheNamesTheFirstBrokenEntityEveryTime() throws {
        let archive = try Self.archive(entities: 160, broken: [150, 37, 99])
        for _ in 0..<10 {
            do {
                _ = try ModelCacheDecoder.decode(archive)
                Issue.record("a broken cache decoded")
            } catch {
                #expect("\(error)".contains("E37.p37_1 is of unknown attribute type 4242"), "\(error)")
            }
        }
    }

    @Test func aLargeModelsValidationErrorNamesTheSameEntityEveryTime() throws {
        var entities = (0..<150).map { i in
            EntityDescription(name: String(format: "E%03d", i), attributes: [AttributeDescription(name: "name", type: .string)])
        }
        for i in [120, 45, 90] { entities[i].indexes = [IndexDescription(name: "by_missing", attributes: ["missing"])] }
        for _ in 0..<10 {
            #expect(throws: ModelError.indexOnMissingAttribute(entity: "E045", index: "by_missing", attribute: "missing")) {
                _ = try ManagedObjectModel(validating: entities.shuffled())
            }
        }
    }
}
