import Foundation
import Testing
import VellumTestSupport
@testable import VellumStore

/// A store records its model's `versionHash`; opening compares it with the model in hand.
/// If the hash of an unchanged model ever changed, every existing store would look
/// migrated-from-another-model. These hashes were recorded from the first implementation
/// of `canonicalText` and must never change.
@Suite("Model version hash, pinned")
struct ModelVersionHashPinTests {
    /// Every kind of declaration the hash covers: each attribute type, defaults of each
    /// kind, bounds, a pattern, indexes, uniqueness, inheritance, every relationship shape.
    static func richModel() throws -> ManagedObjectModel {
        let types: [AttributeType] = [.string, .integer16, .integer32, .integer64, .double, .float, .decimal,
                                      .boolean, .date, .binary, .uuid, .uri, .transformable]
        var attributes = types.map { AttributeDescription(name: "a_\($0.rawValue)", type: $0) }
        attributes += [
            AttributeDescription(name: "title", type: .string, isOptional: false, defaultValue: .string("Untitled \"q\""),
                                 minValue: 1, maxValue: 80, regex: "^[A-Z].*$", isIndexed: true),
            AttributeDescription(name: "count", type: .integer32, defaultValue: .integer(-7), minValue: -100, maxValue: 1e6),
            AttributeDescription(name: "ratio", type: .double, defaultValue: .double(0.25), minValue: 0.5),
            AttributeDescription(name: "flag", type: .boolean, isOptional: false, defaultValue: .bool(true)),
            AttributeDescription(name: "when", type: .date, defaultValue: .date(Date(timeIntervalSinceReferenceDate: 12345.5))),
            AttributeDescription(name: "cached", type: .string, isTransient: true),
        ]
        let note = EntityDescription(name: "Note", attributes: attributes, relationships: [
            RelationshipDescription(name: "folder", destination: "Folder", inverse: "notes", isOptional: false, deleteRule: .nullify),
            RelationshipDescription(name: "tags", destination: "Tag", inverse: "notes", isToMany: true, minCount: 0, maxCount: 5),
        ], uniquenessConstraints: [["title", "count"], ["a_uuid"]], indexes: [IndexDescription(name: "byTitleCount", attributes: ["title", "count"])])
        let folder = EntityDescription(name: "Folder", attributes: [AttributeDescription(name: "name", type: .string)], relationships: [
            RelationshipDescription(name: "notes", destination: "Note", inverse: "folder", isToMany: true, isOrdered: true, deleteRule: .cascade),
        ])
        let special = EntityDescription(name: "SpecialFolder", parent: "Folder", attributes: [AttributeDescription(name: "icon", type: .binary)])
        let base = EntityDescription(name: "Labelled", isAbstract: true, attributes: [AttributeDescription(name: "label", type: .string)])
        let tag = EntityDescription(name: "Tag", parent: "Labelled", relationships: [
            RelationshipDescription(name: "notes", destination: "Note", inverse: "tags", isToMany: true, deleteRule: .deny),
        ])
        return try ManagedObjectModel(entities: [tag, note, base, folder, special])
    }

    @Test func aRichModelKeepsItsHash() throws {
        let hash = try Self.richModel().versionHash
        #expect(hash == "c25eb30ccd5bcc7a64439cce3524daddfae5e6f3470834ed340c10f8d758e811")
    }

    @Test func theFixtureModelsKeepTheirHashes() throws {
        let pinned = [
            "all-attribute-types.xcdatamodel.xml": "648722ce84571c30ebdba307ec05c691cdcfc99dfa6ea78da8cfff0295da86d2",
            "moody-v1.xcdatamodel.xml": "6379d01601b404402fb6af6e96dcb269cf387637936cd519128a60a51b94ef6c",
            "moody-v2.xcdatamodel.xml": "6c080dc1e54459b73a9e7e00a7357616068302464b0a3c2c9290660c12559dfa",
            "relationships-many-to-many.xcdatamodel.xml": "1e4bac05fe248b87f03035840f5cb4bda11c3f305bfc125452dfa92ac093dfe5",
            "sample-model-inheritance.xcdatamodel.xml": "0cf65ab63728dffa13210c7bf2c283953e90c02739382041fc47086f9108a586",
            "bookmarks-ordered.xcdatamodel.xml": "5cb48801193e01077fa524187c07b6851d7e78d202cd19c1f7c0ff39aa6adcfc",
        ]
        for (file, hash) in pinned.sorted(by: { $0.key < $1.key }) {
            let model = try ModelLoader.load(from: SharedFixtures.directory.appendingPathComponent("models/\(file)"))
            #expect(model.versionHash == hash, "\(file)")
        }
    }
}
