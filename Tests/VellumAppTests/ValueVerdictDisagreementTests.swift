import Foundation
import Testing
@testable import VellumApp
import VellumStore

/// The three disagreements issue #12 names between the editor's checks and
/// `save()`'s: each value must get the same verdict on both paths.
@Suite struct ValueVerdictDisagreementTests {
    /// Saves `value` into a fresh in-memory store whose one entity has `attribute`
    /// as its only attribute: nil when the save took it, else why not.
    static func saveRefusal(_ value: Value, _ attribute: AttributeDescription) throws -> String? {
        let model = try ModelBuilder().entity("Thing") {
            $0.attribute(attribute.name, attribute.type, optional: attribute.isOptional,
                         min: attribute.minValue, max: attribute.maxValue, regex: attribute.regex)
        }.build()
        let store = try PersistentStore(url: nil, model: model, options: .inMemory)
        let context = try ManagedObjectContext(store: store)
        do {
            try context.insert("Thing").setValue(value, forKey: attribute.name)
            _ = try context.save()
            return nil
        } catch {
            return ErrorText.describe(error)
        }
    }

    static func editorRefusal(_ text: String, _ attribute: AttributeDescription) -> String? {
        if case .failure(let e) = FieldText.parse(text, for: attribute) { return e.reason }
        return nil
    }

    @Test func dateBoundUsesOneEpochInEditorAndSave() throws {
        // min 0 is 1970-01-01 (the store's epoch): 1980 is after it on every path.
        let since = AttributeDescription(name: "since", type: .date, minValue: 0)
        let date = try #require(Value.parseISO8601("1980-01-01"))
        #expect(Self.editorRefusal("1980-01-01", since) == nil)
        #expect(try Self.saveRefusal(.date(date), since) == nil)
        // And 1969 is before it on every path.
        let early = try #require(Value.parseISO8601("1969-12-31"))
        #expect(Self.editorRefusal("1969-12-31", since) != nil)
        #expect(try Self.saveRefusal(.date(early), since) != nil)
    }

    @Test func regexIsAFullMatchEverywhere() throws {
        let sku = AttributeDescription(name: "sku", type: .string, regex: "[A-Z]{3}-[0-9]+")
        #expect(Self.editorRefusal("ABC-12\n", sku) != nil)
        #expect(try Self.saveRefusal(.string("ABC-12\n"), sku) != nil)
        #expect(Self.editorRefusal("ABC-12", sku) == nil)
        #expect(try Self.saveRefusal(.string("ABC-12"), sku) == nil)
    }

    @Test func loneSurrogateJSONRefusedEverywhere() throws {
        let meta = AttributeDescription(name: "meta", type: .transformable)
        for text in [#""\ud800""#, #"["\udc00"]"#, #"{"k": "\ud800\u0041"}"#] {
            #expect(Self.editorRefusal(text, meta) != nil, "\(text)")
            #expect(try Self.saveRefusal(.string(text), meta) != nil, "\(text)")
        }
        // A proper pair is one character, accepted on both.
        #expect(Self.editorRefusal(#""\ud83d\ude00""#, meta) == nil)
        #expect(try Self.saveRefusal(.string(#""\ud83d\ude00""#), meta) == nil)
    }
}
