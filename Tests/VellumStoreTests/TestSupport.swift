import Foundation
import Testing
@testable import VellumStore

/// A temporary directory removed when the value is released.
final class TempDir {
    let url: URL
    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("vellum-test-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
    func file(_ name: String) -> URL { url.appendingPathComponent(name) }
}

enum Fixtures {
    /// A small shop: providers, products, tags (many-to-many), and an inheritance branch.
    static func shopModel() throws -> ManagedObjectModel {
        try ModelBuilder()
            .entity("Provider") {
                $0.attribute("name", .string, optional: false, min: 1, max: 40)
                $0.attribute("country", .string)
                $0.toMany("products", "Product", inverse: "provider", deleteRule: .deny)
                $0.unique("name")
            }
            .entity("Product") {
                $0.attribute("name", .string, optional: false)
                $0.attribute("price", .double, default: .double(0), min: 0)
                $0.attribute("stock", .integer16, default: .integer(0))
                $0.attribute("sku", .string, regex: "[A-Z]{3}-[0-9]+")
                $0.attribute("added", .date)
                $0.attribute("active", .boolean, default: .bool(true))
                $0.toOne("provider", "Provider", inverse: "products")
                $0.toMany("tags", "Tag", inverse: "products")
                $0.toMany("images", "Image", inverse: "product", ordered: true, deleteRule: .cascade)
            }
            .entity("Tag") {
                $0.attribute("name", .string, optional: false)
                $0.toMany("products", "Product", inverse: "tags")
            }
            .entity("Image") {
                $0.attribute("url", .uri)
                $0.attribute("bytes", .binary)
                $0.toOne("product", "Product", inverse: "images")
            }
            .entity("Item", abstract: true) { $0.attribute("title", .string) }
            .entity("Task", parent: "Item") { $0.attribute("done", .boolean, default: .bool(false)) }
            .entity("Note", parent: "Item") { $0.attribute("body", .string) }
            .build()
    }

    static func openShop(_ dir: TempDir, name: String = "shop.sqlite") throws -> PersistentStore {
        try PersistentStore(url: dir.file(name), model: shopModel())
    }
}

/// The team's Core Data fixtures (`shared/fixtures/coredata`): from
/// `VELLUM_FIXTURES_DIR`, else the first `shared/fixtures/coredata` beside the
/// package or one of its parent folders, else `/work/shared/fixtures/coredata`.
enum SharedFixtures {
    static let directory: URL = {
        if let dir = ProcessInfo.processInfo.environment["VELLUM_FIXTURES_DIR"] { return URL(fileURLWithPath: dir) }
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("shared/fixtures/coredata")
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: "/work/shared/fixtures/coredata")
    }()
}
