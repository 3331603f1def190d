import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// What an Xcode model says beyond Vellum's model and Core Data's version hash needs:
/// class names, hash modifiers, transformer names, external storage, derivations — the
/// attributes `XcodeModelWriter` writes. Read beside `XcodeModelReader` (which stays
/// below the Core Data layer), from the same `contents` file.
public enum XcodeModelDetailsReader {
    /// The Core Data model at `url` (an `.xcdatamodeld`'s current version, an `.xcdatamodel`
    /// or a `contents` file): the model and its details.
    public static func coreDataModel(url: URL) throws(StoreError) -> CoreDataModel {
        let model = try XcodeModelReader.read(url: url)
        let file: URL
        let data: Data
        do {
            file = try XcodeModelReader.contentsFile(for: url)
            data = try Data(contentsOf: file)
        } catch let error as ModelError {
            throw .model(error)
        } catch {
            throw .model(.parse(file: url.path, detail: "cannot read file: \(ErrorText.reason(error))"))
        }
        let parser = XMLParser(data: data)
        let delegate = DetailsDelegate()
        parser.delegate = delegate
        parser.shouldResolveExternalEntities = false
        // The XML was read once already by `XcodeModelReader`, which reports its errors.
        _ = parser.parse()
        return CoreDataModel(model: model, details: delegate.details)
    }
}

private final class DetailsDelegate: NSObject, XMLParserDelegate {
    var details: [String: CoreDataEntityDetails] = [:]
    private var entity: String?
    private var depth = 0

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attrs: [String: String] = [:]) {
        depth += 1
        switch (depth, elementName) {
        case (2, "entity"):
            entity = attrs["name"]
            guard let entity else { return }
            var d = CoreDataEntityDetails()
            d.className = attrs["representedClassName"]
            d.versionHashModifier = attrs["versionHashModifier"]
            details[entity] = d
        case (3, "attribute"), (3, "relationship"):
            guard let entity, let name = attrs["name"] else { return }
            var d = CoreDataPropertyDetails()
            d.versionHashModifier = attrs["versionHashModifier"]
            if elementName == "attribute" {
                d.valueTransformerName = attrs["valueTransformerName"]
                d.attributeValueClassName = attrs["customClassName"]
                d.allowsExternalStorage = attrs["allowsExternalBinaryDataStorage"] == "YES"
                if attrs["derived"] == "YES" { d.derivationExpression = attrs["derivationExpression"] }
            }
            if d != CoreDataPropertyDetails() { details[entity]?.properties[name] = d }
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        if depth == 2, elementName == "entity" { entity = nil }
        depth -= 1
    }
}
