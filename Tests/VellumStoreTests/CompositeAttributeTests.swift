import Foundation
import Testing
@testable import VellumStore

/// Composite attributes (Core Data's `NSCompositeAttributeDescription`): read from Xcode
/// models, JSON, the Swift builder and model caches; stored as one column per leaf named
/// by its key path; queried and sorted by dotted key paths, in SQL and in memory.
@Suite struct CompositeAttributeTests {
    static let quakeXML = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Quake" representedClassName="Quake" syncable="YES">
                <attribute name="code" attributeType="String"/>
                <attribute name="magnitude" attributeType="Composite" composite="Magnitude"/>
                <attribute name="origin" optional="YES" attributeType="Composite" composite="Origin"/>
                <attribute name="notes" optional="YES" attributeType="Composite" composite="Nothing"/>
            </entity>
            <composite name="Magnitude">
                <attribute name="richter" attributeType="Double" defaultValueString="0.0" usesScalarValueType="YES"/>
                <attribute name="scale" optional="YES" attributeType="String"/>
            </composite>
            <composite name="Origin">
                <attribute name="depth" attributeType="Double" usesScalarValueType="YES"/>
                <attribute name="place" attributeType="Composite" composite="Place"/>
            </composite>
            <composite name="Place">
                <attribute name="lat" attributeType="Double" usesScalarValueType="YES"/>
                <attribute name="lon" attributeType="Double" usesScalarValueType="YES"/>
            </composite>
            <composite name="Nothing"/>
        </model>
        """

    static func quakeModel() throws -> ManagedObjectModel {
        try XcodeModelReader.read(data: Data(quakeXML.utf8), file: "Quake.xml")
    }

    // MARK: - Reading models

    @Test func anXcodeModelsCompositesBecomeLeafAttributesNamedByKeyPath() throws {
        let quake = try #require(try Self.quakeModel().entity(named: "Quake"))
        #expect(quake.attributeNames == ["code", "magnitude.richter", "magnitude.scale", "origin.depth",
                                         "origin.place.lat", "origin.place.lon"])
        #expect(quake.compositePaths == ["magnitude", "origin", "origin.place", "notes"])
        // A leaf is required only when it and every composite above it are.
        #expect(quake.attribute(named: "magnitude.richter")?.isOptional == false)
        #expect(quake.attribute(named: "magnitude.scale")?.isOptional == true)
        #expect(quake.attribute(named: "origin.place.lat")?.isOptional == true)
        #expect(quake.attribute(named: "magnitude.richter")?.defaultValue == .double(0))
        // The declaration keeps the grouping, for writing the model back.
        let declared = try #require(quake.declaration.attributes.first { $0.name == "origin" })
        #expect(declared.type == .composite && declared.compositeName == "Origin")
        #expect(declared.elements.map(\.name) == ["depth", "place"])
        #expect(declared.elements[1].elements.map(\.name) == ["lat", "lon"])
    }

    @Test func aCompositeNamingNoDefinitionOrItselfIsRefused() throws {
        func refusal(_ body: String) -> String {
            let xml = "<model>\(body)</model>"
            do { _ = try XcodeModelReader.read(data: Data(xml.utf8), file: "m.xml"); return "" } catch { return "\(error)" }
        }
        #expect(refusal(#"<entity name="A"><attribute name="m" attributeType="Composite" composite="Gone"/></entity>"#)
            .contains("A.m names composite 'Gone', which the model does not define"))
        #expect(refusal(#"<entity name="A"><attribute name="m" attributeType="Composite"/></entity>"#)
            .contains("A.m names no composite"))
        #expect(refusal(#"<entity name="A"><attribute name="m" attributeType="Composite" composite="L"/></entity><composite name="L"><attribute name="inner" attributeType="Composite" composite="L"/></composite>"#)
            .contains("A.m.inner: composite 'L' contains itself"))
        #expect(refusal(#"<entity name="A"><attribute name="m" attributeType="Composite" composite="C"/></entity><composite name="C"><attribute name="x" attributeType="Double"/><attribute name="X" attributeType="Double"/></composite>"#)
            .contains("composite m has two elements named X"))
    }

    @Test func theModelWritesBackAsTheSameXcodeModelAndJSON() throws {
        let model = try Self.quakeModel()
        let xml = XcodeModelWriter.contents(CoreDataModel(model: model, details: [:]))
        #expect(xml.contains(#"<composite name="Place">"#) && xml.contains(#"<composite name="Nothing"/>"#))
        let again = try XcodeModelReader.read(data: Data(xml.utf8), file: "again.xml")
        #expect(again == model)
        let json = model.jsonData()
        let fromJSON = try ManagedObjectModel(jsonData: json)
        #expect(fromJSON == model)
        #expect(fromJSON.versionHash == model.versionHash)
    }

    @Test func theSwiftBuilderAndJSONDeclareComposites() throws {
        let built = try ModelBuilder().entity("Quake") {
            $0.attribute("code", .string, optional: false)
            $0.composite("magnitude", optional: false, [
                AttributeDescription(name: "richter", type: .double, isOptional: false, defaultValue: .double(0)),
                AttributeDescription(name: "scale", type: .string),
            ])
        }.build()
        let json = try ManagedObjectModel(jsonData: Data("""
            {"entities": [{"name": "Quake", "attributes": [
              {"name": "code", "type": "string", "optional": false},
              {"name": "magnitude", "type": "composite", "optional": false, "elements": [
                {"name": "richter", "type": "double", "optional": false, "default": 0},
                {"name": "scale", "type": "string"}]}]}]}
            """.utf8))
        #expect(built == json)
        #expect(built.entity(named: "Quake")?.attributeNames == ["code", "magnitude.richter", "magnitude.scale"])
        let misplaced = #"{"entities": [{"name": "A", "attributes": [{"name": "x", "type": "string", "elements": []}]}]}"#
        #expect(throws: StoreError.self) { try ManagedObjectModel(jsonData: Data(misplaced.utf8)) }
        let badElement = #"{"entities": [{"name": "A", "attributes": [{"name": "c", "type": "composite", "elements": [{"name": "a.b", "type": "string"}]}]}]}"#
        #expect { try ManagedObjectModel(jsonData: Data(badElement.utf8)) } throws: { "\($0)".contains("element names must be non-empty, without '.'") }
    }

    // MARK: - Storing and querying

    @Test(arguments: StoreEngine.allCases)
    func compositeElementsAreStoredInColumnsNamedByKeyPathAndQueriedByDottedKeyPaths(_ engine: StoreEngine) throws {
        let dir = TempDir()
        let opened = try engine.open(try Self.quakeModel(), in: dir)
        let ctx = try ManagedObjectContext(store: opened.store)
        for (code, richter, depth) in [("a", 5.1, 10.0), ("b", 3.2, 30.0), ("c", 6.4, 20.0)] {
            let q = try ctx.insert("Quake", values: ["code": .string(code)])
            try q.setCompositeValues(["richter": .double(richter), "scale": .string("ML")], for: "magnitude")
            try q.setValue(.double(depth), forKey: "origin.depth")
        }
        try ctx.save()
        #expect(try opened.text(#"SELECT "code", "magnitude.richter", "origin.depth" FROM "Quake" ORDER BY "code""#)
                == "a|5.1|10.0\nb|3.2|30.0\nc|6.4|20.0")

        let other = try ManagedObjectContext(store: opened.store)
        let strong = try other.fetch("Quake", where: QueryPredicate(format: "magnitude.richter > 4.5"),
                                     sortedBy: [QuerySortDescriptor("origin.depth", ascending: false)])
        #expect(try strong.map { try $0["code"] } == [.string("c"), .string("a")])
        #expect(try strong[0].compositeValues("magnitude") == ["richter": .double(6.4), "scale": .string("ML")])
        #expect(try strong[0].compositeValues("origin") == ["depth": .double(20), "place.lat": .null, "place.lon": .null])
        #expect(try strong[0].compositeValues("notes") == [:])

        // The same predicate in memory, on unsaved changes.
        let b = try #require(try other.fetch("Quake", where: QueryPredicate(format: "code == 'b'")).first)
        try b.setValue(.double(7), forKey: "magnitude.richter")
        let predicate = try QueryPredicate(format: "magnitude.richter > 4.5 AND magnitude.scale ==[c] 'ml'")
        #expect(try predicate.evaluate(b))
        #expect(try QueryPredicate(format: "origin.place.lat == nil").evaluate(b))
    }

    @Test func aPathEndingAtACompositeOrPastALeafIsRefusedWithItsName() throws {
        let model = try Self.quakeModel()
        func refusal(_ format: String) -> String {
            do { try QueryPredicate(format: format).validate(entityNamed: "Quake", model: model); return "" } catch { return "\(error)" }
        }
        #expect(refusal("magnitude > 3").contains("'magnitude' of Quake is a composite attribute: name one of its elements, as in 'magnitude.richter'"))
        #expect(refusal("notes == nil").contains("'notes' of Quake is a composite attribute: name one of its elements (it has none)"))
        #expect(refusal("magnitude.richter.x == 1").contains("'magnitude.richter' of Quake is an attribute, not a relationship"))
        #expect(refusal("magnitude.nope == 1").contains("composite 'magnitude' of Quake has no element 'nope' (it has richter, scale)"))
        #expect(refusal("origin.x == 1").contains("composite 'origin' of Quake has no element 'x' (it has depth, place)"))
    }

    /// Through a relationship, and aggregated over a to-many: `ANY quakes.magnitude.richter`,
    /// `quakes.@max.magnitude.richter`, in SQL and in memory.
    @Test(arguments: StoreEngine.allCases)
    func anElementIsReachedThroughRelationshipsAndAggregated(_ engine: StoreEngine) throws {
        let model = try ModelBuilder()
            .entity("Region") {
                $0.attribute("name", .string)
                $0.toMany("quakes", "Quake", inverse: "region")
            }
            .entity("Quake") {
                $0.composite("magnitude", [AttributeDescription(name: "richter", type: .double)])
                $0.toOne("region", "Region", inverse: "quakes")
            }.build()
        let dir = TempDir()
        let ctx = try ManagedObjectContext(store: try engine.open(model, in: dir).store)
        for (name, values) in [("north", [2.0, 6.5]), ("south", [3.0, 4.0])] {
            let region = try ctx.insert("Region", values: ["name": .string(name)])
            for v in values { try ctx.insert("Quake", values: ["magnitude.richter": .double(v)]).setToOne("region", region) }
        }
        try ctx.save()
        for format in ["quakes.@max.magnitude.richter > 5", "ANY quakes.magnitude.richter > 5", "quakes.@sum.magnitude.richter > 8"] {
            let predicate = try QueryPredicate(format: format)
            let fetched = try ctx.fetch("Region", where: predicate)
            #expect(try fetched.map { try $0["name"] } == [.string("north")], "\(format)")
            #expect(try ctx.fetch("Region").filter { try predicate.evaluate($0) }.count == 1, "\(format) in memory")
        }
        let north = try ctx.fetch("Quake", where: QueryPredicate(format: "region.name == 'north' AND magnitude.richter < 3"))
        #expect(north.count == 1)
    }

    @Test func aRequiredElementLeftNilIsRefusedOnSaveByItsKeyPath() throws {
        let dir = TempDir()
        let store = try PersistentStore(url: dir.file("q.sqlite"), model: try Self.quakeModel())
        let ctx = try ManagedObjectContext(store: store)
        let q = try ctx.insert("Quake", values: ["code": .string("x")])
        try q.setValue(.null, forKey: "magnitude.richter")
        #expect { try ctx.save() } throws: { "\($0)".contains("magnitude.richter") }
        #expect(ctx.hasChanges, "the unsaved work is kept")
        #expect { try q.setCompositeValues(["nope": .integer(1)], for: "magnitude") } throws: { "\($0)".contains("magnitude.nope") }
        #expect { try q.compositeValues("code") } throws: { "\($0)".contains("Quake has no composite attribute 'code'") }
    }

    @MainActor @Test(arguments: StoreEngine.allCases)
    func aListSortedByACompositeElementMovesARowWhenItChanges(_ engine: StoreEngine) throws {
        let dir = TempDir()
        let container = try engine.container(try Self.quakeModel(), in: dir)
        let view = container.viewContext
        for (code, richter) in [("a", 1.0), ("b", 2.0), ("c", 3.0)] {
            _ = try view.insert("Quake", values: ["code": .string(code), "magnitude.richter": .double(richter)])
        }
        try view.save()
        let controller = ResultsController(
            fetchRequest: FetchRequest(entityName: "Quake", predicate: try QueryPredicate(format: "magnitude.richter >= 2"),
                                       sortDescriptors: [QuerySortDescriptor("magnitude.richter", ascending: false)]),
            context: view)
        try controller.performFetch()
        func codes() throws -> [Value] { try controller.fetchedObjectIDs.map { try view.existingObject(with: $0)["code"] } }
        #expect(try codes() == [.string("c"), .string("b")])
        let a = try #require(try view.fetch("Quake", where: QueryPredicate(format: "code == 'a'")).first)
        try a.setValue(.double(9), forKey: "magnitude.richter")
        try view.save()
        #expect(try codes() == [.string("a"), .string("c"), .string("b")])
    }

    // MARK: - Migration

    /// Adding a composite adds its leaves' columns (a required one with its default);
    /// renaming the composite (its renaming identifier) keeps every element's values.
    @Test func aCompositeAddedThenRenamedByMigrationsKeepsItsValues() throws {
        func model(_ body: (inout EntityBuilder) -> Void) throws -> ManagedObjectModel {
            try ModelBuilder().entity("Quake") { $0.attribute("code", .string); body(&$0) }.build()
        }
        let elements = [AttributeDescription(name: "richter", type: .double, isOptional: false, defaultValue: .double(1)),
                        AttributeDescription(name: "scale", type: .string)]
        let old = try model { _ in }
        let store = try MigrationTestStore(old) { ctx in _ = try ctx.insert("Quake", values: ["code": .string("a")]) }
        let added = try model { $0.composite("magnitude", elements) }
        let plan = try StoreMigrator.plan(storeAt: store.url, to: added)
        #expect(plan.description.contains("attribute magnitude.richter added"), "\(plan.description)")
        try store.migrate(to: added)
        #expect(try store.rows("Quake", model: added).values.map { $0["magnitude.richter"] } == [.double(1)])

        do {
            let ctx = try ManagedObjectContext(store: PersistentStore(url: store.url, model: added))
            try #require(try ctx.fetch("Quake").first).setCompositeValues(["richter": .double(6.5), "scale": .string("Mw")], for: "magnitude")
            try ctx.save()
        }
        let renamed = try model { $0.composite("size", renamedFrom: "magnitude", elements) }
        try store.migrate(to: renamed)
        let row = try #require(try store.rows("Quake", model: renamed).values.first)
        #expect(row["size.richter"] == .double(6.5) && row["size.scale"] == .string("Mw"))
    }

    // MARK: - Model caches

    /// A compiled model holding a composite, archived as Core Data's keyed archives are
    /// (no real store with one was at hand: see docs/core-data-stores.md).
    @Test func aModelCacheCompositeIsReadWithItsElements() throws {
        var objects: [PlistValue] = [.string("$null")]
        func add(_ v: PlistValue) -> PlistValue { objects.append(v); return .uid(UInt64(objects.count - 1)) }
        func object(_ className: String, _ fields: [String: PlistValue]) -> PlistValue {
            let cls = add(.dictionary(["$classname": .string(className), "$classes": .array([.string(className), .string("NSObject")])]))
            return add(.dictionary(PlistDictionary(fields.merging(["$class": cls]) { a, _ in a })))
        }
        func dictionary(_ entries: [(String, PlistValue)]) -> PlistValue {
            object("NSDictionary", ["NS.keys": .array(entries.map { add(.string($0.0)) }), "NS.objects": .array(entries.map(\.1))])
        }
        let richter = object("NSAttributeDescription", ["NSPropertyName": add(.string("richter")), "NSAttributeType": .integer(500)])
        let scale = object("NSAttributeDescription", ["NSPropertyName": add(.string("scale")), "NSAttributeType": .integer(700),
                                                      "NSIsOptional": .bool(true)])
        let magnitude = object("NSCompositeAttributeDescription", [
            "NSPropertyName": add(.string("magnitude")), "NSAttributeType": .integer(2100),
            "NSElements": object("NSArray", ["NS.objects": .array([richter, scale])]),
        ])
        let code = object("NSAttributeDescription", ["NSPropertyName": add(.string("code")), "NSAttributeType": .integer(700)])
        let entity = object("NSEntityDescription", ["NSEntityName": add(.string("Quake")),
                                                    "NSProperties": dictionary([("code", code), ("magnitude", magnitude)])])
        let root = object("NSManagedObjectModel", ["NSEntities": dictionary([("Quake", entity)])])
        let archive = try KeyedArchive(plist: .dictionary([
            "$archiver": .string("NSKeyedArchiver"), "$version": .integer(100000), "$objects": .array(objects),
            "$top": .dictionary(["root": root]),
        ]))
        let model = try ModelCacheDecoder.decode(archive).model
        let quake = try #require(model.entity(named: "Quake"))
        #expect(quake.attributeNames == ["code", "magnitude.richter", "magnitude.scale"])
        #expect(quake.attribute(named: "magnitude.scale")?.isOptional == true)
        // Core Data's columns for the leaves: `ZMAGNITUDE_RICHTER` (see the docs).
        #expect(CoreDataNaming(model: model).column(entity: "Quake", property: "magnitude.richter") == "ZMAGNITUDE_RICHTER")
    }
}
