import Foundation
import Testing
@testable import VellumStore

/// The Core Data model fixtures (see `SharedFixtures`).
private let fixturesDirectory: URL = SharedFixtures.directory.appendingPathComponent("models")

private let fixtureNames: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: fixturesDirectory.path)) ?? [])
    .filter { $0.hasSuffix(".xml") }
    .sorted()

private func fixture(_ name: String) throws -> ManagedObjectModel {
    try XcodeModelReader.read(url: fixturesDirectory.appendingPathComponent("\(name).xcdatamodel.xml"))
}

private func fixtureData(_ name: String) throws -> Data {
    try Data(contentsOf: fixturesDirectory.appendingPathComponent("\(name).xcdatamodel.xml"))
}

/// Runs `body` and returns the `ModelError` nested in the `StoreError` it threw (nil if none).
private func modelError<T>(_ body: () throws(StoreError) -> T) -> ModelError? {
    do { _ = try body(); return nil } catch { return error.modelError }
}

/// The same for the helpers below that throw `ModelError` itself (`json`, `xml`).
private func thrownModelError<T>(_ body: () throws(ModelError) -> T) -> ModelError? {
    do { _ = try body(); return nil } catch { return error }
}

/// Runs `body`, throwing the `ModelError` nested in what it throws (to compare with `#expect(throws:)`).
private func unwrappingModelError<T>(_ body: () throws(StoreError) -> T) throws(ModelError) -> T {
    do { return try body() } catch { throw error.modelError ?? .parse(file: "", detail: "not a model error: \(error)") }
}

private func json(_ text: String) throws(ModelError) -> ManagedObjectModel {
    try unwrappingModelError { () throws(StoreError) in try ManagedObjectModel(jsonData: Data(text.utf8)) }
}

private func xml(_ entities: String) throws(ModelError) -> ManagedObjectModel {
    try XcodeModelReader.model(data: Data("""
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        \(entities)
        </model>
        """.utf8), file: "test.xml")
}

@Suite("Model loading")
struct ModelLoadingTests {
    // MARK: - Xcode fixtures

    @Test func fixturesArePresent() {
        #expect(fixtureNames.count >= 7, "fixtures not found at \(fixturesDirectory.path)")
    }

    @Test(arguments: fixtureNames)
    func everyFixtureLoads(_ name: String) throws {
        let url = fixturesDirectory.appendingPathComponent(name)
        let model = try XcodeModelReader.read(url: url)
        #expect(!model.entityNames.isEmpty)
        // The front door sniffs the XML and gives the same model.
        #expect(try ModelLoader.load(from: url) == model)
    }

    @Test(arguments: fixtureNames)
    func jsonRoundTripOfEveryFixture(_ name: String) throws {
        let model = try XcodeModelReader.read(url: fixturesDirectory.appendingPathComponent(name))
        let data = model.jsonData()
        let again = try ManagedObjectModel(jsonData: data)
        #expect(again == model)
        #expect(again.versionHash == model.versionHash)
        #expect(again.jsonData() == data, "encoding is deterministic")
        #expect(try ManagedObjectModel.fromJSON(data) == model)
    }

    @Test func allAttributeTypes() throws {
        let model = try fixture("all-attribute-types")
        #expect(model.entityNames == ["AllType", "Book", "Reader"])
        let all = try #require(model.entity(named: "AllType"))
        let types = Dictionary(uniqueKeysWithValues: all.attributes.map { ($0.name, $0.type) })
        #expect(types == [
            "typeBinary": .binary, "typeBoolean": .boolean, "typeDate": .date, "typeDecimal": .decimal,
            "typeDouble": .double, "typeFloat": .float, "typeInt16": .integer16, "typeInt32": .integer32,
            "typeInt64": .integer64, "typeString": .string, "typeTransformable": .transformable,
            "typeUndefine": .undefined, "typeURI": .uri, "typeUUID": .uuid,
        ])
        #expect(all.attributes.allSatisfy { $0.isOptional })
        #expect(all.attribute(named: "typeInt16")?.defaultValue == .integer(0))
        #expect(all.attribute(named: "typeDouble")?.defaultValue == .double(0))
        #expect(all.attribute(named: "typeDecimal")?.defaultValue == .decimal(0))
        #expect(all.attribute(named: "typeString")?.defaultValue == nil)
        let undefined = try #require(all.attribute(named: "typeUndefine"))
        #expect(undefined.isTransient)

        let book = try #require(model.entity(named: "Book"))
        let bookName = try #require(book.attribute(named: "bookName"))
        #expect(bookName.type == .string)
        #expect(!bookName.isOptional, "a missing optional=\"YES\" means required")
        #expect(bookName.defaultValue == .string("book123"))
        #expect(book.attribute(named: "category")?.isOptional == true)

        let age = try #require(model.entity(named: "Reader")?.attribute(named: "age"))
        #expect(age.type == .undefined && age.isTransient)
        #expect(age.minValue == 0 && age.maxValue == 200)
        #expect(model.entity(named: "Reader")?.storedAttributeIndices.count == 1)
    }

    @Test func bookmarksOrderedRelationshipsAndFetchIndexes() throws {
        let model = try fixture("bookmarks-ordered")
        let bookmark = try #require(model.entity(named: "BookmarkEntity"))
        let children = try #require(bookmark.relationship(named: "children"))
        #expect(children.isToMany && children.isOrdered)
        #expect(children.deleteRule == .cascade)
        #expect(children.destination == "BookmarkEntity" && children.inverse == "parent")
        let parent = try #require(bookmark.relationship(named: "parent"))
        #expect(!parent.isToMany && !parent.isOrdered)
        #expect(parent.maxCount == nil && parent.minCount == nil, "to-one ignores maxCount=\"1\"")
        #expect(bookmark.relationship(named: "favoriteFolders")?.isOrdered == false)
        #expect(bookmark.relationship(named: "favoriteFolders")?.renamingIdentifier == "favoriteFolder")
        #expect(bookmark.relationship(named: "favorites")?.isOrdered == true)
        #expect(bookmark.attribute(named: "isFolder")?.isOptional == false)
        #expect(bookmark.attribute(named: "isPendingDeletion")?.defaultValue == .bool(false))
        #expect(bookmark.attribute(named: "uuid")?.type == .string)
        #expect(bookmark.declaration.indexes == [
            IndexDescription(name: "byUUID", attributes: ["uuid", "isPendingDeletion"]),
            IndexDescription(name: "byURL", attributes: ["url", "isPendingDeletion"]),
            IndexDescription(name: "byIsPendingDeletion", attributes: ["isPendingDeletion"]),
        ])
    }

    @Test func moodyMinimal() throws {
        let model = try fixture("moody-minimal")
        #expect(model.entityNames == ["Mood"])
        let mood = try #require(model.entity(named: "Mood"))
        let date = try #require(mood.attribute(named: "date"))
        #expect(date.type == .date && !date.isOptional && date.isIndexed)
        #expect(mood.attribute(named: "colors")?.type == .transformable)
    }

    @Test func moodyInheritanceConstraintsAndCompoundIndexes() throws {
        let model = try fixture("moody-v1")
        #expect(model.entityNames == ["Continent", "Country", "GeographicRegion", "Mood"])
        let region = try #require(model.entity(named: "GeographicRegion"))
        #expect(region.isAbstract)
        #expect(region.subentityNames == ["Continent", "Country"])
        #expect(region.declaration.uniquenessConstraints == [["numericISO3166Code", "uniquenessDummy"]])
        #expect(region.declaration.indexes.map(\.attributes) == [["markedForDeletionDate", "updatedAt"]])
        let continent = try #require(model.entity(named: "Continent"))
        #expect(continent.declaration.parent == "GeographicRegion")
        #expect(continent.rootName == "GeographicRegion")
        #expect(!continent.isAbstract)
        #expect(continent.attribute(named: "numericISO3166Code")?.type == .integer16, "inherited")
        #expect(continent.uniquenessConstraints == [["numericISO3166Code", "uniquenessDummy"]])
        let countries = try #require(continent.relationship(named: "countries"))
        #expect(countries.isToMany && !countries.isOptional)
        #expect(model.entity(named: "Mood")?.attribute(named: "markedForRemoteDeletion")?.defaultValue == .bool(false))
        #expect(model.entity(named: "Mood")?.declaration.indexes.first?.attributes == ["markedForRemoteDeletion", "markedForDeletionDate", "date"])
    }

    @Test func moodyVersionsDiffer() throws {
        let v1 = try fixture("moody-v1")
        let v2 = try fixture("moody-v2")
        #expect(v1 != v2)
        #expect(v1.versionHash != v2.versionHash)
        let mood = try #require(v2.entity(named: "Mood"))
        #expect(mood.attribute(named: "remoteID")?.renamingIdentifier == "remoteIdentifier")
        #expect(mood.attribute(named: "rating")?.type == .integer16)
        #expect(v1.entity(named: "Mood")?.attribute(named: "rating") == nil)
    }

    @Test func manyToMany() throws {
        let model = try fixture("relationships-many-to-many")
        #expect(model.entityNames == ["Grade", "NewEntity", "Student", "Teacher"])
        #expect(model.entity(named: "NewEntity")?.attributes.isEmpty == true)
        let students = try #require(model.entity(named: "Teacher")?.relationship(named: "students"))
        #expect(students.isToMany && students.inverse == "teachers" && students.destination == "Student")
        let teachers = try #require(model.entity(named: "Student")?.relationship(named: "teachers"))
        #expect(teachers.isToMany && teachers.inverse == "students")
        #expect(model.entity(named: "Student")?.relationship(named: "gradeLevel")?.isToMany == false)
    }

    @Test func inheritanceSample() throws {
        let model = try fixture("sample-model-inheritance")
        #expect(model.entityNames == ["Car", "ExpensiveSportCar", "Person", "SportCar"])
        let expensive = try #require(model.entity(named: "ExpensiveSportCar"))
        #expect(expensive.declaration.parent == "SportCar")
        #expect(expensive.ancestorNames == ["Car", "SportCar"])
        #expect(expensive.rootName == "Car")
        #expect(expensive.attribute(named: "numberPlate")?.isOptional == false, "inherited from Car")
        #expect(model.entity(named: "Car")?.hierarchyNames == ["Car", "SportCar", "ExpensiveSportCar"])
        #expect(model.entity(named: "Car")?.declaration.uniquenessConstraints == [["numberPlate"]])
        let speed = try #require(model.entity(named: "Car")?.attribute(named: "currentDrivingSpeed"))
        #expect(speed.isTransient && speed.type == .integer64 && speed.defaultValue == .integer(0))
        let person = try #require(model.entity(named: "Person"))
        #expect(person.declaration.uniquenessConstraints == [["firstName", "lastName"]])
        let id = try #require(person.attribute(named: "id"))
        #expect(id.type == .uuid && !id.isOptional && id.preservesValueInHistoryOnDeletion)
        let driving = try #require(person.attribute(named: "isDriving"))
        #expect(driving.isTransient && !driving.isOptional && driving.defaultValue == .bool(false))
    }

    @Test func xcodeDefaultsAndValidationAttributes() throws {
        let model = try xml("""
            <entity name="Event" elementID="OldEvent">
                <attribute name="at" attributeType="Date" defaultDateTimeInterval="86400"/>
                <attribute name="code" optional="YES" attributeType="String" regularExpressionString="[A-Z]+" minValueString="2" maxValueString="8"/>
                <attribute name="ratio" optional="YES" attributeType="Float" defaultValueString="1.5"/>
                <attribute name="id" optional="YES" attributeType="UUID" defaultValueString="7E5F6A5B-2A5A-4C4B-9E8B-8C8B4D4E2A11"/>
                <attribute name="on" optional="YES" attributeType="Boolean" defaultValueString="YES"/>
                <userInfo><entry key="table" value="events"/></userInfo>
                <fetchedProperty name="recent" optional="YES"><fetchRequest name="x" entity="Event"/></fetchedProperty>
            </entity>
            <fetchRequest name="All" entity="Event"/>
            <configuration name="Cloud"><memberEntity name="Event"/></configuration>
            """)
        let event = try #require(model.entity(named: "Event"))
        #expect(event.declaration.renamingIdentifier == "OldEvent")
        #expect(event.attribute(named: "at")?.defaultValue == .date(Date(timeIntervalSinceReferenceDate: 86400)))
        #expect(event.attribute(named: "at")?.defaultValue == .date(Value.parseISO8601("2001-01-02T00:00:00Z")!))
        let code = try #require(event.attribute(named: "code"))
        #expect(code.regex == "[A-Z]+" && code.minValue == 2 && code.maxValue == 8)
        #expect(event.attribute(named: "ratio")?.defaultValue == .double(1.5))
        #expect(event.attribute(named: "id")?.defaultValue == .uuid(UUID(uuidString: "7E5F6A5B-2A5A-4C4B-9E8B-8C8B4D4E2A11")!))
        #expect(event.attribute(named: "on")?.defaultValue == .bool(true))
        #expect(event.declaration.userInfo == ["table": "events"])
        #expect(event.attributes.count == 5)
        #expect(try ManagedObjectModel(jsonData: model.jsonData()) == model)
    }

    // MARK: - .xcdatamodeld / .xcdatamodel folders

    @Test func versionedModelFolder() throws {
        let temp = TempDir()
        let dir = temp.url
        let bundle = dir.appendingPathComponent("Moody.xcdatamodeld")
        let fm = FileManager.default
        for (version, source) in [("Moody.xcdatamodel", "moody-v1"), ("Moody 2.xcdatamodel", "moody-v2")] {
            let folder = bundle.appendingPathComponent(version)
            try fm.createDirectory(at: folder, withIntermediateDirectories: true)
            try fixtureData(source).write(to: folder.appendingPathComponent("contents"))
        }
        let v1 = try fixture("moody-v1")
        let v2 = try fixture("moody-v2")

        // Without .xccurrentversion: the last version ("Moody 2" sorts after "Moody").
        #expect(try XcodeModelReader.read(url: bundle) == v2)

        // .xccurrentversion names the current version.
        let plist = try PropertyListSerialization.data(
            fromPropertyList: ["_XCCurrentVersionName": "Moody.xcdatamodel"], format: .xml, options: 0)
        try plist.write(to: bundle.appendingPathComponent(".xccurrentversion"))
        #expect(try XcodeModelReader.read(url: bundle) == v1)
        #expect(try ModelLoader.load(from: bundle) == v1)

        let plist2 = try PropertyListSerialization.data(
            fromPropertyList: ["_XCCurrentVersionName": "Moody 2.xcdatamodel"], format: .xml, options: 0)
        try plist2.write(to: bundle.appendingPathComponent(".xccurrentversion"))
        #expect(try ModelLoader.load(from: bundle) == v2)

        // A single .xcdatamodel folder reads its contents.
        #expect(try ModelLoader.load(from: bundle.appendingPathComponent("Moody.xcdatamodel")) == v1)
        #expect(try XcodeModelReader.read(url: bundle.appendingPathComponent("Moody 2.xcdatamodel")) == v2)

        // A current version that does not exist is refused.
        let bad = try PropertyListSerialization.data(
            fromPropertyList: ["_XCCurrentVersionName": "Moody 3.xcdatamodel"], format: .xml, options: 0)
        try bad.write(to: bundle.appendingPathComponent(".xccurrentversion"))
        let error = modelError { () throws(StoreError) in try ModelLoader.load(from: bundle) }
        guard case .parse(let file, let detail)? = error else { Issue.record("expected parse error, got \(String(describing: error))"); return }
        #expect(file.hasSuffix(".xccurrentversion"))
        #expect(detail.contains("Moody 3.xcdatamodel"))
    }

    // MARK: - ModelLoader

    @Test func loaderChoosesFormatByPathAndContents() throws {
        let temp = TempDir()
        let dir = temp.url
        let model = try fixture("sample-model-inheritance")

        let jsonFile = dir.appendingPathComponent("model.json")
        try model.jsonData().write(to: jsonFile)
        #expect(try ModelLoader.load(from: jsonFile) == model)

        let sniffedJSON = dir.appendingPathComponent("model.vellum")
        try (Data("\u{FEFF}\n  ".utf8) + model.jsonData()).write(to: sniffedJSON)
        #expect(try ModelLoader.load(from: sniffedJSON) == model)

        let sniffedXML = dir.appendingPathComponent("contents")
        try fixtureData("sample-model-inheritance").write(to: sniffedXML)
        #expect(try ModelLoader.load(from: sniffedXML) == model)

        let store = dir.appendingPathComponent("Store.sqlite")
        try (ModelLoader.sqliteHeader + Data(repeating: 0, count: 84)).write(to: store)
        #expect(modelError { () throws(StoreError) in try ModelLoader.load(from: store) }
                == .parse(file: store.path, detail: ModelLoader.storeFileDetail))

        let junk = dir.appendingPathComponent("notes.txt")
        try Data("hello".utf8).write(to: junk)
        #expect(modelError { () throws(StoreError) in try ModelLoader.load(from: junk) } != nil)

        let missing = dir.appendingPathComponent("missing.json")
        guard case .parse(let file, _)? = modelError({ () throws(StoreError) in try ModelLoader.load(from: missing) }) else {
            Issue.record("expected parse error for a missing file"); return
        }
        #expect(file == missing.path)
    }

    // MARK: - JSON and the builder

    private static var builderModel: ModelBuilder { ModelBuilder()
        .entity("Provider") {
            $0.attribute("name", .string, optional: false, regex: "[a-z]+")
            $0.attribute("since", .date, default: .date(Date(timeIntervalSince1970: 1_700_000_000)))
            $0.attribute("logo", .binary, default: .data(Data([1, 2, 3])))
            $0.attribute("key", .uuid, default: .uuid(UUID(uuidString: "00000000-0000-0000-0000-00000000000A")!))
            $0.attribute("site", .uri, default: .uri(URL(string: "https://example.com/x")!))
            $0.attribute("scratch", .undefined, transient: true)
            $0.toMany("products", "Product", inverse: "provider", ordered: true, min: 1, max: 10, deleteRule: .cascade)
            $0.unique("name")
            $0.index("byName", "name")
        }
        .entity("Product") {
            $0.attribute("price", .decimal, default: .decimal(Decimal(string: "12.5")!), min: 0)
            $0.attribute("count", .integer32, default: .integer(3), max: 100, indexed: true)
            $0.attribute("weight", .double, default: .double(0.25))
            $0.attribute("active", .boolean, default: .bool(true), preservedOnDeletion: true)
            $0.toOne("provider", "Provider", inverse: "products", optional: false, deleteRule: .deny)
        }
        .entity("Special", parent: "Product", abstract: true) {
            $0.attribute("tag", .string)
        } }

    private static let builderJSON = """
        {
          "entities": [
            {
              "name": "Provider",
              "attributes": [
                {"name": "name", "type": "string", "optional": false, "regex": "[a-z]+"},
                {"name": "since", "type": "date", "default": "2023-11-14T22:13:20Z"},
                {"name": "logo", "type": "binary", "default": "AQID"},
                {"name": "key", "type": "uuid", "default": "00000000-0000-0000-0000-00000000000A"},
                {"name": "site", "type": "uri", "default": "https://example.com/x"},
                {"name": "scratch", "type": "undefined", "transient": true}
              ],
              "relationships": [
                {"name": "products", "destination": "Product", "inverse": "provider", "toMany": true,
                 "ordered": true, "minCount": 1, "maxCount": 10, "deleteRule": "cascade"}
              ],
              "uniquenessConstraints": [["name"]],
              "indexes": [{"name": "byName", "attributes": ["name"]}]
            },
            {
              "name": "Product",
              "attributes": [
                {"name": "price", "type": "decimal", "default": "12.5", "min": 0},
                {"name": "count", "type": "integer32", "default": 3, "max": 100, "indexed": true},
                {"name": "weight", "type": "double", "default": 0.25},
                {"name": "active", "type": "boolean", "default": true, "preserveOnDeletion": true}
              ],
              "relationships": [
                {"name": "provider", "destination": "Provider", "inverse": "products",
                 "optional": false, "deleteRule": "deny"}
              ]
            },
            {"name": "Special", "parent": "Product", "abstract": true,
             "attributes": [{"name": "tag", "type": "string"}]}
          ]
        }
        """

    @Test func jsonAndBuilderProduceEqualModels() throws {
        let built = try Self.builderModel.build()
        let fromJSON = try json(Self.builderJSON)
        #expect(fromJSON == built)
        #expect(fromJSON.versionHash == built.versionHash)
        #expect(try ManagedObjectModel(jsonData: built.jsonData()) == built)
        #expect(fromJSON.jsonData() == built.jsonData())
        // Decimals may also be written as numbers; dates as seconds since 1970.
        let alternative = Self.builderJSON
            .replacingOccurrences(of: "\"default\": \"12.5\"", with: "\"default\": 12.5")
            .replacingOccurrences(of: "\"default\": \"2023-11-14T22:13:20Z\"", with: "\"default\": 1700000000")
        #expect(try json(alternative) == built)
    }

    @Test func documentedExampleLoads() throws {
        let doc = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/model-format.md")
        let text = try String(contentsOf: doc, encoding: .utf8)
        let start = try #require(text.range(of: "```json\n"))
        let end = try #require(text.range(of: "\n```", range: start.upperBound..<text.endIndex))
        let model = try json(String(text[start.upperBound..<end.lowerBound]))
        #expect(model.entityNames == ["Product", "Provider", "Special"])
        #expect(model.entity(named: "Provider")?.declaration.userInfo == ["table": "providers"])
        #expect(model.entity(named: "Special")?.attribute(named: "price")?.type == .decimal)
    }

    @Test func jsonEncodingOmitsDefaultsAndSortsKeys() throws {
        let model = try json("""
            {"entities": [{"name": "A", "attributes": [{"name": "x", "type": "string", "optional": true,
              "transient": false, "indexed": false}]}]}
            """)
        let text = try #require(String(data: model.jsonData(), encoding: .utf8))
        #expect(!text.contains("optional") && !text.contains("transient") && !text.contains("indexed"))
        #expect(!text.contains("relationships"))
        let keys = ["\"attributes\"", "\"name\" : \"A\""].map { text.range(of: $0)?.lowerBound }
        let first = try #require(keys[0]), second = try #require(keys[1])
        #expect(first < second, "keys are sorted")
    }

    @Test func versionHashIgnoresDeclarationOrderButNotTypes() throws {
        let a = try ModelBuilder()
            .entity("A") { $0.attribute("x", .string); $0.attribute("y", .integer64)
                           $0.toMany("bs", "B", inverse: "a") }
            .entity("B") { $0.attribute("z", .date); $0.toOne("a", "A", inverse: "bs") }
            .build()
        let reordered = try ModelBuilder()
            .entity("B") { $0.toOne("a", "A", inverse: "bs"); $0.attribute("z", .date) }
            .entity("A") { $0.toMany("bs", "B", inverse: "a"); $0.attribute("y", .integer64)
                           $0.attribute("x", .string) }
            .build()
        #expect(a.versionHash == reordered.versionHash)
        let fromJSON = try ManagedObjectModel(jsonData: reordered.jsonData())
        #expect(fromJSON.versionHash == a.versionHash)
        let changed = try ModelBuilder()
            .entity("A") { $0.attribute("x", .string); $0.attribute("y", .integer32)
                           $0.toMany("bs", "B", inverse: "a") }
            .entity("B") { $0.attribute("z", .date); $0.toOne("a", "A", inverse: "bs") }
            .build()
        #expect(changed.versionHash != a.versionHash)
    }

    // MARK: - Bad models

    @Test func unknownTypeIsRefused() {
        #expect(throws: ModelError.unknownType(entity: "A", property: "x", type: "varchar")) {
            try json(#"{"entities": [{"name": "A", "attributes": [{"name": "x", "type": "varchar"}]}]}"#)
        }
        #expect(throws: ModelError.unknownType(entity: "A", property: "ref", type: "Object ID")) {
            try xml(#"<entity name="A"><attribute name="ref" attributeType="Object ID"/></entity>"#)
        }
        // A composite is read (`CompositeAttributeTests`); one naming no definition is refused.
        #expect(throws: ModelError.parse(file: "test.xml", detail: #"A.loc names no composite (composite="…")"#)) {
            try xml(#"<entity name="A"><attribute name="loc" optional="YES" attributeType="Composite"/></entity>"#)
        }
    }

    @Test func missingInverseIsRefused() {
        #expect(throws: ModelError.missingInverse(entity: "A", relationship: "b")) {
            try json("""
                {"entities": [
                  {"name": "A", "relationships": [{"name": "b", "destination": "B", "inverse": ""}]},
                  {"name": "B", "relationships": [{"name": "a", "destination": "A", "inverse": "b"}]}]}
                """)
        }
        #expect(throws: ModelError.missingInverse(entity: "A", relationship: "b")) {
            try json(#"{"entities": [{"name": "A", "relationships": [{"name": "b", "destination": "A"}]}]}"#)
        }
        #expect(throws: ModelError.missingInverse(entity: "A", relationship: "b")) {
            try xml("""
                <entity name="A"><relationship name="b" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="B"/></entity>
                <entity name="B"><relationship name="a" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="A" inverseName="b" inverseEntity="A"/></entity>
                """)
        }
    }

    @Test func relationshipToMissingEntityIsRefused() {
        #expect(throws: ModelError.missingDestination(entity: "A", relationship: "b", destination: "Nowhere")) {
            try json(#"{"entities": [{"name": "A", "relationships": [{"name": "b", "destination": "Nowhere", "inverse": "a"}]}]}"#)
        }
        #expect(throws: ModelError.missingDestination(entity: "A", relationship: "b", destination: "Nowhere")) {
            try xml(#"<entity name="A"><relationship name="b" optional="YES" toMany="YES" destinationEntity="Nowhere" inverseName="a"/></entity>"#)
        }
    }

    @Test func constraintOnMissingAttributeIsRefused() {
        #expect(throws: ModelError.constraintOnMissingAttribute(entity: "A", attribute: "nope")) {
            try json(#"{"entities": [{"name": "A", "attributes": [{"name": "x", "type": "string"}], "uniquenessConstraints": [["x", "nope"]]}]}"#)
        }
        #expect(throws: ModelError.constraintOnMissingAttribute(entity: "A", attribute: "nope")) {
            try xml("""
                <entity name="A"><attribute name="x" attributeType="String"/>
                <uniquenessConstraints><uniquenessConstraint><constraint value="nope"/></uniquenessConstraint></uniquenessConstraints></entity>
                """)
        }
    }

    @Test func undefinedTypeMustBeTransient() {
        #expect(throws: ModelError.undefinedTypeNotTransient(entity: "A", property: "x")) {
            try json(#"{"entities": [{"name": "A", "attributes": [{"name": "x", "type": "undefined"}]}]}"#)
        }
        #expect(throws: ModelError.undefinedTypeNotTransient(entity: "A", property: "x")) {
            try xml(#"<entity name="A"><attribute name="x" optional="YES"/></entity>"#)
        }
    }

    @Test func invalidDefaultIsRefused() {
        let error = thrownModelError { () throws(ModelError) in
            try xml(#"<entity name="A"><attribute name="n" attributeType="Integer 16" defaultValueString="lots"/></entity>"#)
        }
        guard case .invalidDefault(let entity, let property, _)? = error else {
            Issue.record("expected invalidDefault, got \(String(describing: error))"); return
        }
        #expect(entity == "A" && property == "n")
        #expect(throws: ModelError.self) {
            try json(#"{"entities": [{"name": "A", "attributes": [{"name": "n", "type": "integer16", "default": 70000}]}]}"#)
        }
    }

    @Test func malformedXMLIsRefusedWithLine() {
        let error = modelError { () throws(StoreError) in
            try XcodeModelReader.read(data: Data("<model>\n<entity name=\"A\">\n<attribute name=\"x\"\n</model>".utf8), file: "broken.xml")
        }
        guard case .parse(let file, let detail)? = error else {
            Issue.record("expected parse error, got \(String(describing: error))"); return
        }
        #expect(file == "broken.xml")
        #expect(detail.contains("line"))
        #expect(detail.contains("malformed XML"))

        guard case .parse(_, let mismatch)? = modelError({ () throws(StoreError) in
            try XcodeModelReader.read(data: Data("<model>\n<entity name=\"A\"></attribute></model>".utf8), file: "m.xml")
        }) else { Issue.record("expected parse error for mismatched tags"); return }
        #expect(mismatch.hasPrefix("line 2"))
        #expect(mismatch.contains("closing tag does not match"))

        guard case .parse(_, let notModel)? = modelError({ () throws(StoreError) in
            try XcodeModelReader.read(data: Data("<plist><dict/></plist>".utf8), file: "p.xml")
        }) else { Issue.record("expected parse error for a non-model document"); return }
        #expect(notModel.contains("<model>"))
    }

    @Test func malformedJSONIsRefusedWithDetail() {
        guard case .parse(let file, let detail)? = modelError({ () throws(StoreError) in
            try ManagedObjectModel(jsonData: Data(#"{"entities": [{"name": "A",]}"#.utf8), file: "m.json")
        }) else { Issue.record("expected parse error"); return }
        #expect(file == "m.json")
        #expect(detail.contains("not valid JSON"))
        #expect(detail.contains("line 1"))
        guard case .parse(_, let multiline)? = modelError({ () throws(StoreError) in
            try ManagedObjectModel(jsonData: Data("{\n  \"entities\": [\n    {\"name\": tru}\n  ]\n}".utf8))
        }) else { Issue.record("expected parse error"); return }
        #expect(multiline.contains("line 3"))

        func parseDetail(_ text: String) -> String? {
            if case .parse(_, let detail)? = thrownModelError({ () throws(ModelError) in try json(text) }) { return detail }
            return nil
        }
        let noEntities = parseDetail(#"{"models": []}"#)
        #expect(noEntities?.contains("models") == true)
        let noName = parseDetail(#"{"entities": [{"attributes": []}]}"#)
        #expect(noName?.contains("missing key 'name'") == true)
        #expect(noName?.contains("entities[0]") == true)
        let noType = parseDetail(#"{"entities": [{"name": "Book", "attributes": [{"name": "title"}]}]}"#)
        #expect(noType?.contains("Book.title") == true)
        #expect(noType?.contains("missing key 'type'") == true)
        let typo = parseDetail(#"{"entities": [{"name": "Book", "attributes": [{"name": "title", "type": "string", "optinal": false}]}]}"#)
        #expect(typo?.contains("optinal") == true)
        let badRule = parseDetail(#"{"entities": [{"name": "A", "relationships": [{"name": "a", "destination": "A", "inverse": "a", "deleteRule": "Cascade"}]}]}"#)
        #expect(badRule?.contains("A.a") == true)
        let wrongKind = parseDetail(#"{"entities": [{"name": "A", "abstract": "yes"}]}"#)
        #expect(wrongKind?.contains("abstract") == true)
    }
}
