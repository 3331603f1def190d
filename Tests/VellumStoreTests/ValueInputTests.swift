import Foundation
import Testing
@testable import VellumStore

/// Issue #11 items 8, 13 and 14 at the library level: typed values are read
/// strictly, empty means nil only where nil is allowed, and errors say the cause.
@Suite struct ValueInputTests {
    let due = AttributeDescription(name: "due", type: .date)

    private func parsed(_ text: String, _ attribute: AttributeDescription) -> Value? {
        try? ValueParser.parse(text, for: attribute).get()
    }

    private func refusal(_ text: String, _ attribute: AttributeDescription) -> String? {
        if case .failure(let e) = ValueParser.parse(text, for: attribute) { return e.reason }
        return nil
    }

    @Test func datesAreSilentlyAlteredNoMore() {
        let base = 1_714_521_600.0   // 2024-05-01T00:00:00Z
        #expect(parsed("2024-05-01 12:30", due) == .date(Date(timeIntervalSince1970: base + 12.5 * 3600)))
        #expect(parsed("2024-05-01T12:30:15.5+02:00", due) == .date(Date(timeIntervalSince1970: base + 10.5 * 3600 + 15.5)))
        for bad in ["2024-06-01xyz", "2024-02-30", "2024-06-02T25:99:00Z", "99999-01-01", "2024-05-01 garbage", "2024-05-01T12:30:00 Z"] {
            #expect(parsed(bad, due) == nil, "\(bad) was accepted")
            #expect(refusal(bad, due)?.contains("2024-05-01T12:30:15.25Z") == true, "\(bad): the message lists the accepted forms")
        }
        #expect(refusal("2024-02-30", due)?.hasPrefix("'2024-02-30' is not a date: February 2024 has no day 30") == true)
        #expect(refusal("2024-02-30", due)?.hasSuffix("now or today") == true)
    }

    @Test func dateDefaultsInModelsAreStrict() {
        let json = #"{"entities": [{"name": "A", "attributes": [{"name": "d", "type": "date", "default": "2024-02-30"}]}]}"#
        #expect { try ManagedObjectModel.fromJSON(Data(json.utf8)) } throws: { ($0 as? StoreError)?.modelError != nil }
        do { _ = try ManagedObjectModel.fromJSON(Data(json.utf8)) } catch {
            #expect(error.description.contains("February 2024 has no day 30"))
        }
    }

    @Test func predicateDateLiteralsAreStrict() {
        for bad in ["added < @2024-02-30", "added < @2024-05-01T25:00", "added < @99999-01-01", "added < CAST('2024-02-30', 'NSDate')"] {
            #expect(parseError { try VellumStore.QueryPredicate(format: bad) } != nil, "\(bad)")
        }
        do { _ = try VellumStore.QueryPredicate(format: "added < @2024-05-01T25:00") } catch {
            #expect(error.description.contains("hour 25 is out of range"))
        }
        #expect((try? VellumStore.QueryPredicate(format: "added < @2024-05-01T12:30:00+02:00")) != nil)
    }

    @Test func emptyInputIsNilOnlyForOptionalAttributes() {
        let title = AttributeDescription(name: "title", type: .string, isOptional: false)
        let note = AttributeDescription(name: "note", type: .string)
        #expect(refusal("", title) == "title is required")
        #expect(parsed("", note) == .null)
        #expect(parsed(" ", title) == .string(" "))
        #expect(refusal("", AttributeDescription(name: "n", type: .integer32, isOptional: false)) == "n is required")
    }

    @Test func decimalTextSaysHowItIsStored() {
        let price = AttributeDescription(name: "price", type: .decimal)
        let value = parsed("12.50", price)
        #expect(value == .decimal(Decimal(string: "12.5")!))
        #expect(ValueParser.storedFormNote("12.50", value!) == "'12.50' is stored as 12.5")
        #expect(ValueParser.storedFormNote("12.5", parsed("12.5", price)!) == nil)
    }

    @Test func jsonNullForAnOptionalTransformableStoresNULL() throws {
        let model = try ModelBuilder().entity("Doc") { $0.attribute("meta", .transformable) }.build()
        let dir = TempDir()
        let store = try PersistentStore(url: dir.file("docs.sqlite"), model: model)
        let ctx = try ManagedObjectContext(store: store)
        try ctx.insert("Doc", values: ["meta": .string("null")])
        let doc = try ctx.insert("Doc", values: [:])
        try doc.setValue(.string(" null "), forKey: "meta")
        try ctx.save()
        let c = try Connection(path: dir.file("docs.sqlite").path)
        #expect(try c.scalarInt("SELECT count(*) FROM Doc WHERE meta IS NULL") == 2)
    }

    @Test func uniqueViolationNamesTheAttributeNotAnObjectURI() throws {
        let dir = TempDir()
        let store = try Fixtures.openShop(dir)
        let ctx = try ManagedObjectContext(store: store)
        try ctx.insert("Provider", values: ["name": .string("Acme")])
        try ctx.save()
        try ctx.insert("Provider", values: ["name": .string("Acme")])
        do { try ctx.save(); Issue.record("a duplicate was saved") } catch {
            #expect(ErrorText.describe(error) == "Provider.name must be unique ('Acme' exists)")
        }
    }

    @Test func foundationErrorsNeverReachTheUserRaw() {
        let missing = CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: "/tmp/x.json"])
        #expect(ErrorText.describe(missing) == "/tmp/x.json: no such file or directory")
        #expect(ErrorText.describe(CocoaError(.fileWriteOutOfSpace)) == "disk full")
        #expect(ErrorText.describe(POSIXError(.EACCES)) == "permission denied")
        let other = NSError(domain: "SomeDomain", code: 7)
        #expect(ErrorText.describe(other) == "unexpected error (SomeDomain 7)")
        for e in [missing as any Error, CocoaError(.coderReadCorrupt), other, POSIXError(.ENOSPC)] {
            #expect(!ErrorText.describe(e).contains("Error Domain="), "\(e)")
        }
        // A real Foundation failure, as reading a model file would meet it.
        do { _ = try Data(contentsOf: URL(fileURLWithPath: "/nonexistent-\(UUID())/m.json")) } catch {
            #expect(ErrorText.describe(error).hasSuffix(": no such file or directory"), "\(ErrorText.describe(error))")
        }
        #expect(ErrorText.describe(StoreError.unknownEntity("Zed")) == "the model has no entity named 'Zed'")
    }
}
