import Foundation
@testable import VellumStore

/// A model with every shape the generator handles: inheritance (Author is a Person),
/// to-one, unordered and ordered to-many, optional and required attributes of each kind,
/// transformables untyped (`Value`) and as the Codable type the model names (`"class"`).
/// The Codable type `Book.size` holds (`"class": "BookSize"`).
public struct BookSize: Codable, Equatable, Sendable {
    public var width: Double
    public var height: Double
    public var unit: String
}

enum LibraryModel {
    static let json = """
    {
      "entities": [
        {"name": "Person", "attributes": [{"name": "name", "type": "string", "optional": false}],
         "relationships": []},
        {"name": "Author", "parent": "Person",
         "attributes": [{"name": "born", "type": "integer16"}],
         "relationships": [{"name": "books", "destination": "Book", "inverse": "author", "toMany": true}]},
        {"name": "Book",
         "attributes": [
           {"name": "title", "type": "string", "optional": false},
           {"name": "price", "type": "double", "optional": false, "default": 0},
           {"name": "pages", "type": "integer32"},
           {"name": "copies", "type": "integer64", "optional": false, "default": 0},
           {"name": "rating", "type": "float"},
           {"name": "cost", "type": "decimal"},
           {"name": "inPrint", "type": "boolean", "optional": false, "default": true},
           {"name": "published", "type": "date"},
           {"name": "cover", "type": "binary"},
           {"name": "isbn", "type": "uuid"},
           {"name": "site", "type": "uri"},
           {"name": "extra", "type": "transformable"},
           {"name": "tags", "type": "transformable", "class": "[String]"},
           {"name": "size", "type": "transformable", "class": "BookSize"},
           {"name": "default", "type": "string"}
         ],
         "relationships": [
           {"name": "author", "destination": "Author", "inverse": "books"},
           {"name": "chapters", "destination": "Chapter", "inverse": "book", "toMany": true, "ordered": true, "deleteRule": "cascade"}
         ]},
        {"name": "Chapter", "attributes": [{"name": "title", "type": "string", "optional": false}],
         "relationships": [{"name": "book", "destination": "Book", "inverse": "chapters"}]}
      ]
    }
    """

    static func model() throws -> ManagedObjectModel { try ManagedObjectModel(jsonData: Data(json.utf8)) }

    /// Writes the model into `dir` as `Library.json`.
    static func write(into dir: TempDir) throws -> URL {
        let url = dir.file("Library.json")
        try Data(json.utf8).write(to: url)
        return url
    }
}
