import Foundation
import Testing
@testable import VellumStore

/// The model recovered from each fixture store: equal to its Xcode model, hashing to the
/// stored `NSStoreModelVersionHashes`, and counting the objects SQL counts. Every test works
/// on a copy and checks the original is byte-for-byte unchanged and no file was created.
@Suite struct CoreDataModelRecoveryTests {
    /// Declarations in a fixed order (the cache is a dictionary; Xcode keeps its own order).
    static func normalized(_ model: ManagedObjectModel) -> [EntityDescription] {
        model.entityDescriptions.map { e in
            var e = e
            e.attributes.sort { $0.name < $1.name }
            e.relationships.sort { $0.name < $1.name }
            e.indexes.sort { $0.name < $1.name }
            return e
        }
    }

    @Test(arguments: ["Moody-v1.sqlite", "Moody-v2.sqlite", "SampleModel-v1.sqlite"])
    func recoveredModelEqualsItsXcodeModel(store: String) throws {
        let copy = try CoreDataFixtureCopy(store)
        let recovered = try CoreDataStoreFile(path: copy.url.path).recoverModel()
        #expect(recovered.source == .modelCache)
        let xcode = try XcodeModelReader.read(url: try #require(CoreDataFixtureCopy.xcodeModel(forStore: store)))
        let mine = Self.normalized(recovered.model), theirs = Self.normalized(xcode)
        #expect(mine.map(\.name) == theirs.map(\.name))
        for (a, b) in zip(mine, theirs) { #expect(a == b, "\(store): entity \(a.name) differs") }
        #expect(copy.originalUnchanged())
        #expect(copy.folderContents() == [store])
    }

    @Test(arguments: try CoreDataFixtureCopy.storeNames())
    func recoveredHashesEqualTheStoredOnes(store: String) throws {
        let copy = try CoreDataFixtureCopy(store)
        let recovered = try CoreDataStoreFile(path: copy.url.path).recoverModel()
        let stored = recovered.metadata.versionHashes
        #expect(!stored.isEmpty)
        #expect(CoreDataVersionHash.hashes(recovered.coreData) == stored)
        #expect(recovered.differingEntities.isEmpty)
        #expect(copy.originalUnchanged())
        #expect(copy.folderContents() == [store])
    }

    /// The Xcode model written from each recovered model reads back equal and hashes equal.
    @Test(arguments: try CoreDataFixtureCopy.storeNames())
    func writtenXcodeModelReadsBackAndMatchesTheStore(store: String) throws {
        let copy = try CoreDataFixtureCopy(store)
        let file = try CoreDataStoreFile(path: copy.url.path)
        let recovered = try file.recoverModel()
        let dir = TempDir()
        try XcodeModelWriter.write(recovered.coreData, toFolder: dir.path("Model.xcdatamodel"))
        let back = try XcodeModelReader.read(url: dir.file("Model.xcdatamodel"))
        #expect(back == recovered.model)
        #expect(try file.recoverModel(xcodeModel: dir.file("Model.xcdatamodel")).source == .xcodeModel(path: dir.path("Model.xcdatamodel")))
        #expect(copy.originalUnchanged())
    }

    @Test func cacheDetailsAreKept() throws {
        let copy = try CoreDataFixtureCopy("SampleModel-v1.sqlite")
        let recovered = try CoreDataStoreFile(path: copy.url.path).recoverModel()
        let car = try #require(recovered.model.entity(named: "Car"))
        #expect(recovered.coreData.details(entity: "Car", property: "color").valueTransformerName == "ColorTransformer")
        #expect(car.declaration.uniquenessConstraints == [["numberPlate"]])
        let person = try #require(recovered.model.entity(named: "Person"))
        let id = try #require(person.attributes.first { $0.name == "id" })
        #expect(id.type == .uuid && !id.isOptional && id.preservesValueInHistoryOnDeletion)
        let cars = try #require(person.relationships.first { $0.name == "cars" })
        #expect(cars.isToMany && cars.destination == "Car" && cars.inverse == "owner" && cars.deleteRule == .nullify)
        let speed = try #require(car.attributes.first { $0.name == "currentDrivingSpeed" })
        #expect(speed.isTransient && speed.type == .integer64)
        #expect(try #require(recovered.model.entity(named: "ExpensiveSportCar")).ancestorNames == ["Car", "SportCar"])
        #expect(copy.originalUnchanged())
    }

    @Test func xcodeModelIsAcceptedOnlyWhenItsHashesMatch() throws {
        let v1Model = try #require(CoreDataFixtureCopy.xcodeModel(forStore: "Moody-v1.sqlite"))
        let v1 = try CoreDataFixtureCopy("Moody-v1.sqlite")
        let accepted = try CoreDataStoreFile(path: v1.url.path).recoverModel(xcodeModel: v1Model)
        #expect(accepted.source == .xcodeModel(path: v1Model.path))
        let v2 = try CoreDataFixtureCopy("Moody-v2.sqlite")
        #expect { try CoreDataStoreFile(path: v2.url.path).recoverModel(xcodeModel: v1Model) } throws: { e in
            guard case StoreError.coreDataModelMismatch(_, _, let entities) = e else { return false }
            return entities == ["Mood"] && "\(e)".contains("entities whose version hashes differ: Mood")
        }
        #expect(v1.originalUnchanged() && v2.originalUnchanged())
    }

    /// SampleModel-v2 renamed ExpensiveSportCar to LuxuryCar; Z_PRIMARYKEY keeps the old name.
    @Test func renamedEntityInSampleModelV2() throws {
        let copy = try CoreDataFixtureCopy("SampleModel-v2.sqlite")
        let file = try CoreDataStoreFile(path: copy.url.path)
        let recovered = try file.recoverModel()
        #expect(recovered.model.entityNames == ["Car", "LuxuryCar", "Person", "SportCar"])
        #expect(try file.primaryKeyRows().map(\.name).contains("ExpensiveSportCar"))
        #expect(CoreDataEntityNumbers.numbers(recovered.model)["LuxuryCar"] == 3)
        #expect(recovered.model.entity(named: "LuxuryCar")?.declaration.renamingIdentifier == "ExpensiveSportCar")
        #expect(copy.originalUnchanged())
    }

    @Test(arguments: try CoreDataFixtureCopy.storeNames())
    func perEntityCountsEqualSQLCounts(store: String) throws {
        let copy = try CoreDataFixtureCopy(store)
        let file = try CoreDataStoreFile(path: copy.url.path)
        let recovered = try file.recoverModel()
        let counts = try file.objectCounts(recovered.model)
        // SQL's view: rows per Z_ENT in each root table, named through Z_PRIMARYKEY.
        let renamed = ["ExpensiveSportCar": store == "SampleModel-v2.sqlite" ? "LuxuryCar" : "ExpensiveSportCar"]
        let uri = "file:\(copy.url.path)?immutable=1"
        var sqlCounts: [String: Int] = [:]
        for root in recovered.model.rootEntities {
            let rows = try sqliteRows(uri, "SELECT p.Z_NAME, (SELECT count(*) FROM Z\(root.name.uppercased()) t WHERE t.Z_ENT = p.Z_ENT) FROM Z_PRIMARYKEY p WHERE p.Z_ENT IN (SELECT Z_ENT FROM Z_PRIMARYKEY) AND p.Z_NAME IN (\(root.hierarchyNames.map { "'\($0)'" }.joined(separator: ",")), 'ExpensiveSportCar')")
            for row in rows {
                let parts = row.split(separator: "|").map(String.init)
                let name = renamed[parts[0]] ?? parts[0]
                if root.hierarchyNames.contains(name) { sqlCounts[name] = Int(parts[1]) }
            }
        }
        #expect(counts == sqlCounts)
        #expect(counts.values.reduce(0, +) > 0)
        #expect(copy.originalUnchanged())
    }

    /// CoreDataBooks has no cache: the model is inferred, and the stored hash confirms which
    /// columns are attributes, their types and optionality.
    @Test func storeWithoutCacheGetsAnInferredModelConfirmedByItsHash() throws {
        let copy = try CoreDataFixtureCopy("CoreDataBooks.sqlite")
        let recovered = try CoreDataStoreFile(path: copy.url.path).recoverModel()
        guard case .inferred(let notes) = recovered.source else { Issue.record("source \(recovered.source)"); return }
        #expect(notes.count == 1 && notes[0].contains("confirmed by the stored version hash") && notes[0].contains("ZCONTENTS"))
        let book = try #require(recovered.model.entity(named: "Book"))
        #expect(book.attributes.map { "\($0.name):\($0.type.rawValue):\($0.isOptional)" }.sorted()
                == ["author:string:false", "copyright:date:true", "title:string:false"])
        #expect(copy.originalUnchanged())
        #expect(copy.folderContents() == ["CoreDataBooks.sqlite"])
    }
}

@Suite struct XcodeModelWriterTests {
    /// Markup characters in names, defaults and user info survive the round trip.
    @Test func markupInValuesIsEscaped() throws {
        let text = "a<b & \"c\" > d\nnext"
        let entity = EntityDescription(name: "Note", attributes: [AttributeDescription(name: "body", type: .string, defaultValue: .string(text))],
                                       userInfo: ["remark": text])
        let model = try ManagedObjectModel(entities: [entity])
        let dir = TempDir()
        try XcodeModelWriter.write(CoreDataModel(model: model), toFolder: dir.path("M.xcdatamodel"))
        #expect(try XcodeModelReader.read(url: dir.file("M.xcdatamodel")) == model)
    }
}
