import Foundation
import Testing
@testable import VellumStore

/// Parts of the compiled model no fixture store has, on a hand-built archive: a derived
/// attribute, external storage, a hash modifier, a composite attribute.
@Suite struct ModelCacheDetailsTests {
    /// A model archive with one entity `Book` holding `properties` (archived objects whose
    /// `$class` is given by name), built as NSKeyedArchiver lays it out.
    static func archive(_ properties: [(name: String, className: String, fields: [String: PlistValue])],
                        entityFields: [String: PlistValue] = [:]) throws -> KeyedArchive {
        var objects: [PlistValue] = [.string("$null")]
        func add(_ v: PlistValue) -> PlistValue { objects.append(v); return .uid(UInt64(objects.count - 1)) }
        func cls(_ name: String) -> PlistValue { add(.dictionary(["$classname": .string(name), "$classes": .array([.string(name)])])) }
        let dictClass = cls("NSDictionary")
        var keys: [PlistValue] = [], values: [PlistValue] = []
        for p in properties {
            let name = add(.string(p.name))
            var fields = p.fields
            fields["NSPropertyName"] = name
            fields["$class"] = cls(p.className)
            keys.append(name)
            values.append(add(.dictionary(PlistDictionary(fields))))
        }
        let props = add(.dictionary(["NS.keys": .array(keys), "NS.objects": .array(values), "$class": dictClass]))
        let bookName = add(.string("Book"))
        var entity = entityFields
        entity["NSEntityName"] = bookName
        entity["NSProperties"] = props
        entity["$class"] = cls("NSEntityDescription")
        let book = add(.dictionary(PlistDictionary(entity)))
        let entities = add(.dictionary(["NS.keys": .array([bookName]), "NS.objects": .array([book]), "$class": dictClass]))
        let root = add(.dictionary(["NSEntities": entities, "$class": cls("NSManagedObjectModel")]))
        return try KeyedArchive(plist: .dictionary(["$objects": .array(objects), "$top": .dictionary(["root": root])]))
    }

    static func sha(_ bytes: [UInt8]) -> [UInt8] { SHA256.digest(bytes) }
    static func le<T: FixedWidthInteger>(_ v: T) -> [UInt8] { withUnsafeBytes(of: v.littleEndian, Array.init) }

    @Test func derivedAttributeExternalStorageAndModifierEnterTheHash() throws {
        let modifier = "v2"
        let archive = try Self.archive([
            ("pageCount", "NSDerivedAttributeDescription",
             ["NSAttributeType": .integer(200), "_P": .integer(0xF3), "NSDerivationExpression": .string("count:(pages)")]),
            ("cover", "NSAttributeDescription", ["NSAttributeType": .integer(1000), "_P": .integer(0xF1), "NSFlagsKey": .integer(0x4)]),
        ], entityFields: ["NSVersionHashModifier": .string(modifier)])
        let decoded = try ModelCacheDecoder.decode(archive)
        let book = try #require(decoded.model.entity(named: "Book"))
        #expect(book.attributes.map(\.name).sorted() == ["cover", "pageCount"])
        #expect(decoded.details(entity: "Book", property: "pageCount").derivationExpression == "count:(pages)")
        #expect(decoded.details(entity: "Book", property: "cover").allowsExternalStorage)
        #expect(book.attributes.first { $0.name == "cover" }?.isOptional == false)
        // The recipe, spelled out: cover = SHA256(P ‖ i32(1000) ‖ 0x01), pageCount = SHA256(expression).
        let p = Self.sha(Array("cover".utf8) + Self.le(UInt16(0)))
        let cover = Self.sha(p + Self.le(Int32(1000)) + [1])
        let pageCount = Self.sha(Array("count:(pages)".utf8))
        let expected = Data(Self.sha(Array("Book".utf8) + [0] + cover + pageCount + Array(modifier.utf8)))
        #expect(CoreDataVersionHash.hashes(decoded)["Book"] == expected)
        // An Xcode model cannot say any of this: it hashes differently.
        #expect(CoreDataVersionHash.differingEntities(CoreDataModel(model: decoded.model), stored: ["Book": expected]) == ["Book"])
    }

    /// A composite whose archive holds no element list is an empty composite, not a refusal
    /// (its elements, when there, are read: `CompositeAttributeTests`).
    @Test func aCompositeWithoutElementsIsReadAsAnEmptyComposite() throws {
        let archive = try Self.archive([("magnitude", "NSAttributeDescription", ["NSAttributeType": .integer(2100), "_P": .integer(0xF3)])])
        let book = try #require(try ModelCacheDecoder.decode(archive).model.entity(named: "Book"))
        #expect(book.compositePaths == ["magnitude"])
        #expect(book.declaration.attributes.map(\.type) == [.composite])
    }
}
