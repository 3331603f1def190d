import Foundation
import Testing
import VellumTestSupport
@testable import VellumStore

/// Transformables as the Codable type the model names, to-one comparisons with an
/// object, and generated values equal by the object they wrap.
@Suite struct TypedEntityValueTests {
    func context(_ dir: TempDir) throws -> ManagedObjectContext {
        try ManagedObjectContext(store: try PersistentStore(url: dir.file("lib.sqlite"), model: LibraryModel.model()))
    }

    @Test func aTransformableWithAClassIsThatCodableTypeStoredAsJSON() throws {
        let dir = TempDir()
        let ctx = try context(dir)
        let book = try Book(context: ctx)
        book.title = "Dune"
        book.tags = ["sf", "desert"]
        book.size = BookSize(width: 13.5, height: 21, unit: "cm")
        try ctx.save()

        let reader = try ManagedObjectContext(store: ctx.store)
        let found = try #require(try reader.fetch(Book.self).first)
        #expect(found.tags == ["sf", "desert"])
        #expect(found.size == BookSize(width: 13.5, height: 21, unit: "cm"))
        // Stored as JSON text, keys sorted: what sqlite3 and the browser show.
        #expect(try found.object.value(forKey: "size") == .string(#"{"height":21,"unit":"cm","width":13.5}"#))
        #expect(try found.object.value(forKey: "tags") == .string(#"["sf","desert"]"#))
        found.size = nil
        try reader.save()
        #expect(try ManagedObjectContext(store: ctx.store).fetch(Book.self).first?.object.value(forKey: "size") == .null)
    }

    /// `Book` is outside any hierarchy, so it is generated as a struct (no allocation per
    /// fetched record): still a reference to its record, as the class was.
    @Test func aStructEntityIsAReferenceToItsRecord() throws {
        let dir = TempDir()
        let ctx = try context(dir)
        let book = try Book(context: ctx)
        let copy = book
        copy.title = "Dune"                 // a nonmutating setter, through a `let` copy
        copy.price = 9.5
        #expect(book.title == "Dune" && book.price == 9.5)
        #expect(copy == book && Set([book, copy]).count == 1)
        try ctx.save()
        let fetched = try #require(try ctx.fetch(Book.self).first)
        #expect(fetched == book, "a fetched value is the same record as the inserted one")
        fetched.title = "Dune Messiah"
        #expect(book.title == "Dune Messiah")
        #expect(ctx.hasChanges)
        // A hierarchy keeps classes: Author subclasses Person.
        let author = try Author(context: ctx)
        let person: Person = author
        #expect(person.object === author.object)
    }

    @Test func jsonThatIsNotTheClassIsNilAndTheNextSaveSaysWhy() throws {
        let dir = TempDir()
        let ctx = try context(dir)
        let book = try Book(context: ctx)
        book.title = "Dune"
        try book.object.setValue(.string(#"{"width": "wide"}"#), forKey: "size")
        try ctx.save()
        #expect(book.size == nil)
        let error = #expect(throws: StoreError.self) { try ctx.save() }
        let text = error?.description ?? ""
        #expect(text.contains("Book.size") || (text.contains("Book") && text.contains("size")), "\(text)")
        #expect(text.contains("not a BookSize"), "\(text)")
        // The stored text is untouched.
        #expect(try book.object.value(forKey: "size") == .string(#"{"width": "wide"}"#))
    }

    @Test func theGeneratorTypesAClassedTransformableAndLeavesOthersAsValue() throws {
        let source = SwiftEntityGenerator(model: try LibraryModel.model(), source: "Library.json").generate()
        #expect(source.contains("    var tags: [String]? {"))
        #expect(source.contains("get { transformableAttribute(\"size\", as: BookSize.self) }"))
        #expect(source.contains("public var extra: VellumStore.Value? {"))
    }

    @Test func classIsForTransformablesAndMustBeATypeName() throws {
        func refusal(_ attribute: String) -> String? {
            let json = #"{"entities": [{"name": "Book", "attributes": [\#(attribute)]}]}"#
            do { _ = try ManagedObjectModel(jsonData: Data(json.utf8)); return nil } catch { return "\(error)" }
        }
        let wrongType = refusal(#"{"name": "title", "type": "string", "class": "Title"}"#)
        #expect(wrongType?.contains("Book.title") == true && wrongType?.contains("transformable") == true, "\(wrongType ?? "accepted")")
        let notAType = refusal(#"{"name": "size", "type": "transformable", "class": "X { fatalError() }"}"#)
        #expect(notAType?.contains("is not a Swift type name") == true, "\(notAType ?? "accepted")")
        #expect(refusal(#"{"name": "size", "type": "transformable", "class": "[String: Geo.Point]"}"#) == nil)
    }

    @Test func classRoundTripsThroughTheJSONFormatAndLeavesTheVersionHash() throws {
        let model = try LibraryModel.model()
        let again = try ManagedObjectModel(jsonData: model.jsonData())
        #expect(again.entity(named: "Book")?.attribute(named: "size")?.customClassName == "BookSize")
        var plain = LibraryModel.json
        plain = plain.replacingOccurrences(of: #", "class": "[String]""#, with: "").replacingOccurrences(of: #", "class": "BookSize""#, with: "")
        #expect(try ManagedObjectModel(jsonData: Data(plain.utf8)).versionHash == model.versionHash,
                "the class names the Swift type; the stored column is the same")
    }

    @Test func aToOneComparesWithAnObject() throws {
        let dir = TempDir()
        let ctx = try context(dir)
        let leGuin = try Author(context: ctx), herbert = try Author(context: ctx)
        leGuin.name = "Le Guin"; herbert.name = "Herbert"
        for (title, author) in [("The Dispossessed", leGuin), ("Lavinia", leGuin), ("Dune", herbert)] {
            let b = try Book(context: ctx)
            b.title = title
            b.author = author
        }
        let orphan = try Book(context: ctx)
        orphan.title = "Anonymous"
        try ctx.save()
        let typed: TypedPredicate<Book> = \.author == leGuin
        #expect(try typed.predicate() == QueryPredicate(format: "author == %@", .uri(leGuin.objectID.uri)))
        #expect(try ctx.fetch(Book.self, where: \.author == leGuin, sortedBy: [.ascending(\.title)]).map(\.title) == ["Lavinia", "The Dispossessed"])
        #expect(try ctx.fetch(Book.self, where: \.author != leGuin && \.author != nil).map(\.title) == ["Dune"])
        #expect(try ctx.fetch(Book.self, where: \.author == nil).map(\.title) == ["Anonymous"])
    }

    /// Generated getters read at the attribute's index in the generated model, checked by
    /// name: a class generated from another version of the model still reads the right one.
    @Test func aReadAtAnIndexThatNamesAnotherAttributeFallsBackToTheName() throws {
        let dir = TempDir()
        let ctx = try context(dir)
        let book = try Book(context: ctx)
        book.title = "Dune"
        book.pages = 412
        let entity = book.object.entity
        let titleIndex = try #require(entity.attributeIndexByName["title"])
        let pagesIndex = try #require(entity.attributeIndexByName["pages"])
        #expect(try book.object.value(forKey: "pages", expectedIndex: pagesIndex) == .integer(412))
        #expect(try book.object.value(forKey: "pages", expectedIndex: titleIndex) == .integer(412), "a stale index")
        #expect(try book.object.value(forKey: "pages", expectedIndex: 10_000) == .integer(412), "an index past the end")
        #expect(throws: StoreError.self) { try book.object.value(forKey: "nope", expectedIndex: 0) }
        #expect(book.attribute("pages", at: titleIndex, as: Int32.self) == 412)
        book.setAttribute("pages", at: titleIndex, Int32(99))
        #expect(book.pages == 99 && book.title == "Dune", "a stale index writes the named attribute")
    }

    @Test func valuesForOneObjectAreEqualBeforeAndAfterItsSave() throws {
        let dir = TempDir()
        let ctx = try context(dir)
        let book = try Book(context: ctx)
        book.title = "Dune"
        book.author = try Author(context: ctx)
        book.author?.name = "Herbert"
        let before = try #require(book.author)
        var seen: Set<Author> = [before]
        try ctx.save()
        let after = try #require(book.author)
        #expect(after == before, "two reads of one relationship")
        seen.insert(after)
        #expect(seen.count == 1, "hashed by the object, not its (temporary, then permanent) ID")
        let other = try Author(context: ctx)
        #expect(other != before)
        #expect(Person(object: before.object) == Person(object: after.object))
    }
}
