import Foundation
import Testing
@testable import VellumStore

/// `vellum generate`'s library part: what the generated source declares for each
/// shape of the model (the source is compiled and run by `GeneratedCodeBuildTests`).
@Suite struct SwiftEntityGeneratorTests {
    @Test func propertiesAreTypedWithTheModelsOptionality() throws {
        let source = SwiftEntityGenerator(model: try LibraryModel.model(), source: "Library.json").generate()
        for line in [
            "open class Person: TypedEntity {",
            "public final class Author: Person {",
            // Outside any hierarchy: a struct, its setters nonmutating.
            "public struct Book: TypedEntity {",
            "    public init(object: ManagedObject) { self.object = object }",
            "    public static var entityName: String { \"Book\" }",
            "        nonmutating set { setAttribute(\"title\", at: 0, newValue) }",
            "    public static func keyNames(of keyPath: AnyKeyPath) -> [String]? {",
            "    override public class var entityName: String { \"Author\" }",
            "    public var born: Int16? {",
            "    public var title: String {",
            "        get { attribute(\"title\", at: 0, empty: \"\") }",
            "    public var price: Double {",
            "    public var pages: Int32? {",
            "    public var copies: Int64 {",
            "    public var rating: Float? {",
            "    public var cost: Decimal? {",
            "    public var inPrint: Bool {",
            "    public var published: Date? {",
            "    public var cover: Data? {",
            "    public var isbn: UUID? {",
            "    public var site: URL? {",
            "    public var extra: VellumStore.Value? {",
            "    public var `default`: String? {",
            "    public var author: Author? {",
            "    public var books: [Book] {",
            "    /// Ordered: in the order kept by the store.",
            "    public var chapters: [Chapter] {",
            "    public func addToChapters(_ value: Chapter) { add(value, to: \"chapters\") }",
            "        case \\Book.author?.name: [\"author\", \"name\"]",
            "        case \\Author.name: [\"name\"]",
        ] {
            #expect(source.contains(line + "\n"), "missing: \(line)")
        }
        // Inherited properties are declared once, in the parent class.
        #expect(source.components(separatedBy: "public var name: String {").count == 2)
    }

    @Test func everyFixtureModelGeneratesOneTypePerEntityAndLeavesTheFileAlone() throws {
        let models = try FileManager.default.contentsOfDirectory(at: SharedFixtures.directory.appendingPathComponent("models"),
                                                                  includingPropertiesForKeys: nil)
        #expect(models.count >= 7)
        let dir = TempDir()
        for original in models {
            let copy = dir.file(original.lastPathComponent)
            try FileManager.default.copyItem(at: original, to: copy)
            let before = try Data(contentsOf: original)
            let generator = try SwiftEntityGenerator(modelAt: copy)
            let source = generator.generate()
            for name in generator.model.entityNames {
                // A class in an inheritance hierarchy, a struct outside one.
                let entity = try #require(generator.model.entitiesByName[name])
                let kind = entity.declaration.parent == nil && entity.subentityNames.isEmpty ? "struct" : "class"
                #expect(source.contains("\(kind) \(SwiftEntityGenerator.typeName(name)): "), "\(original.lastPathComponent): \(name)")
            }
            let file = try generator.write(into: dir.file("out"), fileName: SwiftEntityGenerator.outputFileName(forModelAt: copy))
            #expect(try String(contentsOf: file, encoding: .utf8) == source)
            #expect(try Data(contentsOf: original) == before)
        }
        #expect(SwiftEntityGenerator.outputFileName(forModelAt: URL(fileURLWithPath: "/m/moody-v1.xcdatamodel.xml")) == "moody-v1.swift")
        #expect(SwiftEntityGenerator.outputFileName(forModelAt: URL(fileURLWithPath: "/m/Shop.xcdatamodeld")) == "Shop.swift")
        // Regression: `Library.vellum.json` became `Library.vellum.swift` (docs say NAME.swift).
        #expect(SwiftEntityGenerator.outputFileName(forModelAt: URL(fileURLWithPath: "/m/Library.vellum.json")) == "Library.swift")
    }

    @Test func aFileTheGeneratorDidNotWriteIsNeverReplaced() throws {
        let dir = TempDir()
        let generator = SwiftEntityGenerator(model: try LibraryModel.model(), source: "Library.json")
        try "// my own code\n".write(to: dir.file("Library.swift"), atomically: true, encoding: .utf8)
        let error = #expect(throws: StoreError.self) { try generator.write(into: dir.url, fileName: "Library.swift") }
        #expect(error?.description.contains("not written by vellum generate") == true)
        #expect(try String(contentsOf: dir.file("Library.swift"), encoding: .utf8) == "// my own code\n")
    }
}
