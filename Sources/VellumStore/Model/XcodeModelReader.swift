import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads Xcode Core Data models (`.xcdatamodeld`, `.xcdatamodel`, or a bare `contents`
/// XML file) into a `ManagedObjectModel`. See docs/model-format.md for what is read and
/// what is ignored.
public enum XcodeModelReader {
    /// Reads the model at `url`:
    /// - an `.xcdatamodeld` folder: the current version named by `.xccurrentversion`
    ///   (plist key `_XCCurrentVersionName`), or, without that file, the last version in
    ///   numeric name order (`Model`, `Model 2`, …, `Model 10`);
    /// - an `.xcdatamodel` folder: its `contents` file;
    /// - any other file: read as the `contents` XML itself.
    /// A model that cannot be read or is refused is `StoreError.model`.
    public static func read(url: URL) throws(StoreError) -> ManagedObjectModel {
        do { return try model(url: url) } catch { throw .model(error) }
    }

    /// `read(data:file:)`, with `StoreError.model` for a refusal.
    public static func read(data: Data, file: String = "<contents>") throws(StoreError) -> ManagedObjectModel {
        do { return try model(data: data, file: file) } catch { throw .model(error) }
    }

    /// A versioned bundle's model carries the versions before the current one
    /// (`previousVersions`), so that migrations follow renames version by version.
    static func model(url: URL) throws(ModelError) -> ManagedObjectModel {
        guard let bundle = try versionedBundle(url), let at = bundle.versions.firstIndex(of: bundle.current) else {
            return try model(contentsOf: try contentsFile(for: url))
        }
        var versions: [ManagedObjectModel] = []
        for name in bundle.versions[...at] {
            versions.append(try model(contentsOf: try versionContents(url, name)))
        }
        let current = versions.removeLast()
        return versions.isEmpty ? current : current.previousVersions(versions)
    }

    private static func model(contentsOf file: URL) throws(ModelError) -> ManagedObjectModel {
        let data: Data
        do { data = try Data(contentsOf: file) } catch {
            throw .parse(file: file.path, detail: "cannot read file: \(ErrorText.reason(error))")
        }
        return try model(data: data, file: file.path)
    }

    /// Reads a model from the XML of a `contents` file. `file` is used in error messages.
    static func model(data: Data, file: String = "<contents>") throws(ModelError) -> ManagedObjectModel {
        var version: String?
        let declared = try entities(data: data, file: file, versionIdentifier: &version)
        return try ManagedObjectModel(validating: declared, versionIdentifier: version)
    }

    /// The `contents` file the model at `url` is read from.
    static func contentsFile(for url: URL) throws(ModelError) -> URL {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw .parse(file: url.path, detail: "no such file or directory")
        }
        guard isDirectory.boolValue else { return url }
        guard let bundle = try versionedBundle(url) else { return url.appendingPathComponent("contents") }
        return try versionContents(url, bundle.current)
    }

    /// A versioned model's versions (`Model.xcdatamodel`, oldest first: Xcode numbers them
    /// `Model`, `Model 2`, …, `Model 10`) and the current one: named by `.xccurrentversion`
    /// (plist key `_XCCurrentVersionName`), or without that file the last. Nil for a folder
    /// that is a single version (holds `contents`, not named `.xcdatamodeld`).
    static func versionedBundle(_ url: URL) throws(ModelError) -> (versions: [String], current: String)? {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else { return nil }
        if url.pathExtension != "xcdatamodeld", fm.fileExists(atPath: url.appendingPathComponent("contents").path) { return nil }
        let children: [String]
        do { children = try fm.contentsOfDirectory(atPath: url.path) } catch {
            throw .parse(file: url.path, detail: "cannot read folder: \(ErrorText.reason(error))")
        }
        func stem(_ name: String) -> String { String(name.dropLast(".xcdatamodel".count)) }
        let versions = children.filter { $0.hasSuffix(".xcdatamodel") }
            .sorted { stem($0).compare(stem($1), options: [.numeric]) == .orderedAscending }
        guard let last = versions.last else {
            throw .parse(file: url.path, detail: "no .xcdatamodel version (or contents file) in this folder")
        }
        let currentVersion = url.appendingPathComponent(".xccurrentversion")
        // No such file: the last version. One that is there but unreadable is an error,
        // never silently another version than the one Xcode marks current.
        guard fm.fileExists(atPath: currentVersion.path) else { return (versions, last) }
        let plistData: Data
        do { plistData = try Data(contentsOf: currentVersion) } catch {
            throw .parse(file: currentVersion.path, detail: "cannot read file: \(ErrorText.reason(error))")
        }
        let plist: Any
        do { plist = try PropertyListSerialization.propertyList(from: plistData, options: [], format: nil) } catch {
            throw .parse(file: currentVersion.path, detail: "not a valid property list: \(ErrorText.reason(error))")
        }
        guard let name = (plist as? [String: Any])?["_XCCurrentVersionName"] as? String else { return (versions, last) }
        guard versions.contains(name) else {
            throw .parse(file: currentVersion.path, detail: "current version \(name) does not exist in \(url.lastPathComponent)")
        }
        return (versions, name)
    }

    private static func versionContents(_ url: URL, _ version: String) throws(ModelError) -> URL {
        let contents = url.appendingPathComponent(version).appendingPathComponent("contents")
        guard FileManager.default.fileExists(atPath: contents.path) else {
            throw .parse(file: contents.path, detail: "model version has no contents file")
        }
        return contents
    }

    /// Parses the entity declarations of a `contents` XML document.
    static func entities(data: Data, file: String) throws(ModelError) -> [EntityDescription] {
        var version: String?
        return try entities(data: data, file: file, versionIdentifier: &version)
    }

    /// The same, also giving the model's `userDefinedModelVersionIdentifier`.
    static func entities(data: Data, file: String, versionIdentifier: inout String?) throws(ModelError) -> [EntityDescription] {
        let parser = XMLParser(data: data)
        let delegate = XcodeModelParserDelegate(file: file)
        parser.delegate = delegate
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        let ok = parser.parse()
        if let error = delegate.error { throw error }
        if !ok {
            throw .parse(file: file, detail: "line \(parser.lineNumber), column \(parser.columnNumber): malformed XML: \(xmlErrorReason(parser.parserError))")
        }
        guard delegate.sawModel else {
            throw .parse(file: file, detail: "not an Xcode model: no <model> element")
        }
        versionIdentifier = delegate.versionIdentifier
        return try delegate.entitiesWithComposites()
    }

    /// A readable reason for an XMLParser error. The codes are libxml2's `xmlParserErrors`
    /// (FoundationXML's `XMLParser.ErrorCode` names do not line up with them on Linux).
    static func xmlErrorReason(_ error: (any Error)?) -> String {
        guard let error else { return "unknown error" }
        let code = (error as NSError).code
        let reasons: [Int: String] = [
            4: "document is empty", 5: "unexpected end of document or extra content after the root element",
            9: "invalid character", 38: "'<' in an attribute value", 39: "attribute value not quoted",
            40: "attribute value not terminated", 41: "attribute without a value", 42: "attribute given twice",
            64: "the XML declaration is only allowed at the very start", 65: "space required",
            68: "name required", 73: "'>' expected", 76: "closing tag does not match the opening tag",
            77: "element not closed",
        ]
        return reasons[code].map { "\($0) (libxml2 error \(code))" } ?? "libxml2 error \(code)"
    }

    // MARK: - Attribute mapping

    /// Maps Xcode's `attributeType` to `AttributeType`; nil for types Vellum does not support.
    static func attributeType(_ xcode: String?) -> AttributeType? {
        switch xcode {
        case nil, "Undefined"?: return .undefined
        case "Integer 16"?: return .integer16
        case "Integer 32"?: return .integer32
        case "Integer 64"?: return .integer64
        case "Decimal"?: return .decimal
        case "Double"?: return .double
        case "Float"?: return .float
        case "String"?: return .string
        case "Boolean"?: return .boolean
        case "Date"?: return .date
        case "Binary"?: return .binary
        case "UUID"?: return .uuid
        case "URI"?: return .uri
        case "Transformable"?: return .transformable
        case "Composite"?: return .composite
        default: return nil
        }
    }

    static func deleteRule(_ xcode: String?) -> DeleteRule? {
        switch xcode {
        case nil, "Nullify"?: return .nullify
        case "Cascade"?: return .cascade
        case "Deny"?: return .deny
        case "No Action"?: return .noAction
        default: return nil
        }
    }

    /// Interprets `defaultValueString` / `defaultDateTimeInterval` for `type`.
    static func defaultValue(string: String?, dateTimeInterval: String?, type: AttributeType,
                             entity: String, property: String) throws(ModelError) -> Value? {
        func invalid(_ text: String) -> ModelError {
            .invalidDefault(entity: entity, property: property, detail: "'\(text)' is not a valid \(type.rawValue) default")
        }
        if type == .date {
            guard let text = dateTimeInterval ?? string else { return nil }
            guard let seconds = Double(text.trimmingCharacters(in: .whitespaces)) else { throw invalid(text) }
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        }
        guard let text = string else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch type {
        case .string, .undefined: return .string(text)
        case .integer16, .integer32, .integer64:
            if let i = Int64(trimmed) { return .integer(i) }
            if let b = yesNo(trimmed) { return .integer(b ? 1 : 0) }
            throw invalid(text)
        case .double, .float:
            guard let d = Double(trimmed) else { throw invalid(text) }
            return .double(d)
        case .decimal:
            guard let d = Decimal(string: trimmed, locale: Locale(identifier: "en_US_POSIX")) else { throw invalid(text) }
            return .decimal(d)
        case .boolean:
            guard let b = yesNo(trimmed) else { throw invalid(text) }
            return .bool(b)
        case .uuid:
            guard let u = UUID(uuidString: trimmed) else { throw invalid(text) }
            return .uuid(u)
        case .uri:
            guard let u = URL(string: trimmed) else { throw invalid(text) }
            return .uri(u)
        case .binary, .transformable, .date, .composite:
            // Xcode offers no default for these types.
            return nil
        }
    }

    private static func yesNo(_ s: String) -> Bool? {
        switch s.lowercased() {
        case "yes", "true", "1": return true
        case "no", "false", "0": return false
        default: return nil
        }
    }
}

/// The XMLParser delegate that collects entities. Errors stop the parse and are kept
/// in `error`, with the line number.
private final class XcodeModelParserDelegate: NSObject, XMLParserDelegate {
    let file: String
    var entities: [EntityDescription] = []
    var error: ModelError?
    var sawModel = false
    var versionIdentifier: String?

    private var stack: [String] = []
    private var entity: EntityDescription?
    private var constraint: [String]?
    private var index: IndexDescription?
    private var compoundIndex: [String]?
    /// The `<composite name>` definitions (model-level, shared by the attributes that name
    /// them with `composite="…"`), and the one being read.
    private var composites: [String: [AttributeDescription]] = [:]
    private var composite: (name: String, elements: [AttributeDescription])?

    init(file: String) { self.file = file }

    /// The entities, each composite attribute given its definition's elements (nested
    /// ones too). A composite naming no definition, or containing itself, is refused.
    func entitiesWithComposites() throws(ModelError) -> [EntityDescription] {
        func fill(_ a: AttributeDescription, entity: String, path: String, open: [String]) throws(ModelError) -> AttributeDescription {
            guard a.type == .composite else { return a }
            guard let typeName = a.compositeName, let elements = composites[typeName] else {
                let named = a.compositeName.map { "names composite '\($0)', which the model does not define" } ?? "names no composite (composite=\"…\")"
                throw .parse(file: file, detail: "\(entity).\(path) \(named)")
            }
            if open.contains(typeName) {
                throw .parse(file: file, detail: "\(entity).\(path): composite '\(typeName)' contains itself")
            }
            var filled = a
            filled.elements = []
            for e in elements {
                filled.elements.append(try fill(e, entity: entity, path: "\(path).\(e.name)", open: open + [typeName]))
            }
            return filled
        }
        var result = entities
        for i in result.indices {
            for j in result[i].attributes.indices {
                let a = result[i].attributes[j]
                result[i].attributes[j] = try fill(a, entity: result[i].name, path: a.name, open: [])
            }
        }
        return result
    }

    private var parent: String? { stack.last }

    private func fail(_ parser: XMLParser, _ e: ModelError) {
        if error == nil { error = e }
        parser.abortParsing()
    }

    private func fail(_ parser: XMLParser, _ detail: String) {
        fail(parser, .parse(file: file, detail: "line \(parser.lineNumber): \(detail)"))
    }

    private func yes(_ attrs: [String: String], _ key: String) -> Bool { attrs[key] == "YES" }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attrs: [String: String] = [:]) {
        guard error == nil else { return }
        defer { stack.append(elementName) }
        switch (parent, elementName) {
        case (nil, "model"):
            sawModel = true
            versionIdentifier = attrs["userDefinedModelVersionIdentifier"]
        case (nil, _):
            fail(parser, "expected <model> as the root element, found <\(elementName)>")
        case ("model"?, "entity"):
            guard let name = attrs["name"], !name.isEmpty else { return fail(parser, "<entity> without a name") }
            var e = EntityDescription(name: name)
            e.parent = attrs["parentEntity"]
            e.isAbstract = yes(attrs, "isAbstract")
            e.renamingIdentifier = attrs["elementID"]
            entity = e
        case ("entity"?, "attribute"):
            if let a = attribute(parser, attrs, owner: entity?.name) { entity?.attributes.append(a) }
        case ("model"?, "composite"):
            guard let name = attrs["name"], !name.isEmpty else { return fail(parser, "<composite> without a name") }
            if composites[name] != nil { return fail(parser, "composite '\(name)' is defined twice") }
            composite = (name, [])
        case ("composite"?, "attribute"):
            if let a = attribute(parser, attrs, owner: composite.map { "composite \($0.name)" }) { composite?.elements.append(a) }
        case ("entity"?, "relationship"):
            startRelationship(parser, attrs)
        case ("uniquenessConstraints"?, "uniquenessConstraint"):
            constraint = []
        case ("uniquenessConstraint"?, "constraint"):
            if let v = attrs["value"] { constraint?.append(v) }
        case ("entity"?, "fetchIndex"):
            index = IndexDescription(name: attrs["name"] ?? "", attributes: [])
        case ("fetchIndex"?, "fetchIndexElement"):
            // Expression elements (no property) cannot be represented; they are skipped.
            if let p = attrs["property"] { index?.attributes.append(p) }
        case ("compoundIndexes"?, "compoundIndex"):
            compoundIndex = []
        case ("compoundIndex"?, "index"):
            if let v = attrs["value"] { compoundIndex?.append(v) }
        case ("userInfo"?, "entry"):
            // Only an entity's own user info is kept (properties have no user info in Vellum).
            if stack.count >= 2, stack[stack.count - 2] == "entity", let key = attrs["key"] {
                entity?.userInfo[key] = attrs["value"] ?? ""
            }
        default:
            // <elements>, <fetchRequest>, <configuration>, <fetchedProperty> and anything
            // unknown: ignored.
            break
        }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        guard error == nil else { return }
        stack.removeLast()
        switch (parent, elementName) {
        case ("model"?, "entity"):
            if let e = entity { entities.append(e) }
            entity = nil
        case ("model"?, "composite"):
            if let c = composite { composites[c.name] = c.elements }
            composite = nil
        case ("uniquenessConstraints"?, "uniquenessConstraint"):
            if let c = constraint, !c.isEmpty { entity?.uniquenessConstraints.append(c) }
            constraint = nil
        case ("entity"?, "fetchIndex"):
            if var i = index, !i.attributes.isEmpty {
                if i.name.isEmpty { i.name = "index_" + i.attributes.joined(separator: "_") }
                entity?.indexes.append(i)
            }
            index = nil
        case ("compoundIndexes"?, "compoundIndex"):
            if let c = compoundIndex, !c.isEmpty {
                entity?.indexes.append(IndexDescription(name: "compound_" + c.joined(separator: "_"), attributes: c))
            }
            compoundIndex = nil
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        guard error == nil else { return }
        let reason = XcodeModelReader.xmlErrorReason(parseError)
        error = .parse(file: file, detail: "line \(parser.lineNumber), column \(parser.columnNumber): malformed XML: \(reason)")
    }

    /// An `<attribute>` of an entity or of a composite (`owner` names it in messages).
    private func attribute(_ parser: XMLParser, _ attrs: [String: String], owner: String?) -> AttributeDescription? {
        guard let entityName = owner else { return nil }
        guard let name = attrs["name"], !name.isEmpty else {
            fail(parser, "\(entityName): <attribute> without a name")
            return nil
        }
        let xcodeType = attrs["attributeType"]
        guard let type = XcodeModelReader.attributeType(xcodeType) else {
            fail(parser, .unknownType(entity: entityName, property: name, type: xcodeType ?? ""))
            return nil
        }
        let defaultValue: Value?
        do {
            defaultValue = try XcodeModelReader.defaultValue(
                string: attrs["defaultValueString"], dateTimeInterval: attrs["defaultDateTimeInterval"],
                type: type, entity: entityName, property: name)
        } catch {
            fail(parser, error)
            return nil
        }
        var minValue: Double?, maxValue: Double?
        // Xcode writes a date's bounds as `min/maxDateTimeInterval`, seconds since 2001
        // (like `defaultDateTimeInterval`); Vellum's date bounds count from 1970 (`ValueRules`).
        let boundKeys = type == .date
            ? [("minDateTimeInterval", true), ("maxDateTimeInterval", false), ("minValueString", true), ("maxValueString", false)]
            : [("minValueString", true), ("maxValueString", false)]
        for (key, isMin) in boundKeys where (isMin ? minValue : maxValue) == nil {
            guard let text = attrs[key] else { continue }
            guard let d = Double(text.trimmingCharacters(in: .whitespaces)) else {
                fail(parser, "\(entityName).\(name): \(key) '\(text)' is not a number")
                return nil
            }
            let bound = type == .date ? d + Date.timeIntervalBetween1970AndReferenceDate : d
            if isMin { minValue = bound } else { maxValue = bound }
        }
        return AttributeDescription(
            name: name, type: type,
            isOptional: yes(attrs, "optional"),
            isTransient: yes(attrs, "transient"),
            defaultValue: defaultValue, minValue: minValue, maxValue: maxValue,
            regex: attrs["regularExpressionString"],
            isIndexed: yes(attrs, "indexed"),
            preservesValueInHistoryOnDeletion: yes(attrs, "preserveAfterDeletion"),
            renamingIdentifier: attrs["elementID"],
            compositeName: type == .composite ? attrs["composite"] : nil)
    }

    private func startRelationship(_ parser: XMLParser, _ attrs: [String: String]) {
        guard let entityName = entity?.name else { return }
        guard let name = attrs["name"], !name.isEmpty else {
            return fail(parser, "entity \(entityName): <relationship> without a name")
        }
        guard let rule = XcodeModelReader.deleteRule(attrs["deletionRule"]) else {
            return fail(parser, "\(entityName).\(name): unknown deletionRule '\(attrs["deletionRule"] ?? "")'")
        }
        let toMany = yes(attrs, "toMany")
        var minCount: Int?, maxCount: Int?
        if toMany {
            // Xcode writes 0 for "no limit".
            minCount = attrs["minCount"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
            maxCount = attrs["maxCount"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
        }
        entity?.relationships.append(RelationshipDescription(
            name: name,
            destination: attrs["destinationEntity"] ?? "",
            // A missing inverseName is reported by model validation as `missingInverse`.
            inverse: attrs["inverseName"] ?? "",
            isToMany: toMany,
            isOrdered: yes(attrs, "ordered"),
            isOptional: yes(attrs, "optional"),
            minCount: minCount, maxCount: maxCount,
            deleteRule: rule,
            isTransient: yes(attrs, "transient"),
            renamingIdentifier: attrs["elementID"]))
    }
}
