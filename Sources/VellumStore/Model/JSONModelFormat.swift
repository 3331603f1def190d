import Foundation

// MARK: - JSON model format
//
// A model as a JSON document (see docs/model-format.md for the full schema):
//
//     {"entities": [
//       {"name": "Provider",
//        "attributes": [{"name": "name", "type": "string", "optional": false}],
//        "relationships": [{"name": "products", "destination": "Product",
//                           "inverse": "provider", "toMany": true}]},
//       {"name": "Product",
//        "attributes": [{"name": "price", "type": "double", "default": 0}],
//        "relationships": [{"name": "provider", "destination": "Provider",
//                           "inverse": "products"}]}
//     ]}
//
// Keys with default values may be omitted, and are omitted when encoding.
// Unknown keys are refused (a misspelt "optinal" would otherwise be silently lost).

extension ManagedObjectModel {
    /// Reads a model from the JSON model format.
    ///
    /// - Throws: `StoreError.model` holding `ModelError.parse` for malformed JSON or a schema
    ///   violation (naming the entity and property), `.unknownType` for an unknown attribute
    ///   type, and any validation error of `init(entities:)`.
    public convenience init(jsonData: Data, file: String = "<json>") throws(StoreError) {
        do { try self.init(validatingJSON: jsonData, file: file) } catch { throw .model(error) }
    }

    convenience init(validatingJSON jsonData: Data, file: String) throws(ModelError) {
        // One parse for both (reading the identifier by a second parse was a third of the cost).
        let document = try JSONModelFormat.decodeDocument(jsonData, file: file)
        try self.init(validating: document.entities, versionIdentifier: document.versionIdentifier)
    }

    /// Reads a model from the JSON model format (same as `init(jsonData:file:)`).
    public static func fromJSON(_ data: Data, file: String = "<json>") throws(StoreError) -> ManagedObjectModel {
        try ManagedObjectModel(jsonData: data, file: file)
    }

    /// The model in the JSON model format: pretty-printed, keys sorted, default values
    /// omitted, entities sorted by name, properties in declaration order. Deterministic:
    /// equal models give identical bytes.
    public func jsonData() -> Data {
        JSONModelFormat.encode(entityDescriptions, versionIdentifier: versionIdentifier)
    }
}

/// Encoding and decoding of the JSON model format.
enum JSONModelFormat {
    // MARK: Decoding

    static func decode(_ data: Data, file: String) throws(ModelError) -> [EntityDescription] {
        try decodeDocument(data, file: file).entities
    }

    /// The entities and the top-level `versionIdentifier`.
    static func decodeDocument(_ data: Data, file: String) throws(ModelError) -> (entities: [EntityDescription], versionIdentifier: String?) {
        let root: JSONValue
        do {
            root = try JSONValueReader.read(data)
        } catch {
            throw .parse(file: file, detail: "not valid JSON: \(syntaxErrorDetail(data) ?? describe(error, in: data))")
        }
        let top = try JSONObject(root, context: "top level", file: file)
        try top.allowOnly(AllowedKeys.document)
        let versionIdentifier = try top.string("versionIdentifier")
        let entityValues = try top.array("entities", required: true)
        var result: [EntityDescription] = []
        for (i, value) in entityValues.enumerated() {
            result.append(try decodeEntity(value, index: i, file: file))
        }
        return (result, versionIdentifier)
    }

    private static func decodeEntity(_ value: JSONValue, index: Int, file: String) throws(ModelError) -> EntityDescription {
        var obj = try JSONObject(value, context: "entities[\(index)]", file: file)
        let name = try obj.string("name", required: true)!
        obj.context = { "entity \(name)" }
        try obj.allowOnly(AllowedKeys.entity)
        var entity = EntityDescription(name: name)
        entity.parent = try obj.string("parent")
        entity.isAbstract = try obj.bool("abstract", default: false)
        entity.renamingIdentifier = try obj.string("renamingIdentifier")
        for (i, v) in try obj.array("attributes").enumerated() {
            entity.attributes.append(try decodeAttribute(v, entity: name, index: i, file: file))
        }
        for (i, v) in try obj.array("relationships").enumerated() {
            entity.relationships.append(try decodeRelationship(v, entity: name, index: i, file: file))
        }
        for (i, v) in try obj.array("uniquenessConstraints").enumerated() {
            guard case .array(let names) = v else {
                throw .parse(file: file, detail: "entity \(name): uniquenessConstraints[\(i)] must be an array of attribute names")
            }
            var constraint: [String] = []
            for n in names {
                guard case .string(let s) = n else {
                    throw .parse(file: file, detail: "entity \(name): uniquenessConstraints[\(i)] must contain attribute names (strings)")
                }
                constraint.append(s)
            }
            entity.uniquenessConstraints.append(constraint)
        }
        for (i, v) in try obj.array("indexes").enumerated() {
            var index = try JSONObject(v, context: "entity \(name): indexes[\(i)]", file: file)
            let indexName = try index.string("name", required: true)!
            index.context = { "entity \(name): index \(indexName)" }
            try index.allowOnly(AllowedKeys.index)
            let attributes = try index.stringArray("attributes")
            entity.indexes.append(IndexDescription(name: indexName, attributes: attributes))
        }
        if let info = try obj.object("userInfo") {
            for (key, v) in info {
                guard case .string(let s) = v else {
                    throw .parse(file: file, detail: "entity \(name): userInfo value for '\(key)' must be a string")
                }
                entity.userInfo[key] = s
            }
        }
        return entity
    }

    private static func decodeAttribute(_ value: JSONValue, entity: String, index: Int, file: String) throws(ModelError) -> AttributeDescription {
        var obj = try JSONObject(value, context: "entity \(entity): attributes[\(index)]", file: file)
        let name = try obj.string("name", required: true)!
        obj.context = { "attribute \(entity).\(name)" }
        try obj.allowOnly(AllowedKeys.attribute)
        let typeName = try obj.string("type", required: true)!
        guard let type = AttributeType(rawValue: typeName) else {
            throw .unknownType(entity: entity, property: name, type: typeName)
        }
        // A composite's elements are attributes too (nested composites included).
        var elements: [AttributeDescription] = []
        for (i, v) in try obj.array("elements").enumerated() {
            elements.append(try decodeAttribute(v, entity: "\(entity).\(name)", index: i, file: file))
        }
        if type != .composite, obj.fields["elements"] != nil || obj.fields["composite"] != nil {
            throw .parse(file: file, detail: "attribute \(entity).\(name): \"elements\" and \"composite\" are for composite attributes, not \(type.rawValue)")
        }
        var defaultValue: Value?
        if let raw = obj.fields["default"] {
            defaultValue = try decodeDefault(raw, type: type, entity: entity, property: name)
        }
        return AttributeDescription(
            name: name, type: type,
            isOptional: try obj.bool("optional", default: true),
            isTransient: try obj.bool("transient", default: false),
            defaultValue: defaultValue,
            minValue: try obj.double("min"), maxValue: try obj.double("max"),
            regex: try obj.string("regex"),
            isIndexed: try obj.bool("indexed", default: false),
            preservesValueInHistoryOnDeletion: try obj.bool("preserveOnDeletion", default: false),
            renamingIdentifier: try obj.string("renamingIdentifier"),
            customClassName: try customClassName(obj.string("class"), type: type, entity: entity, property: name, file: file),
            elements: elements, compositeName: try obj.string("composite"))
    }

    /// A transformable's `"class"`: a Swift type name (`Tags`, `[String]`, `Geo.Point`,
    /// `[String: Int]`), spliced into generated code, so nothing else is accepted.
    private static func customClassName(_ name: String?, type: AttributeType, entity: String, property: String,
                                        file: String) throws(ModelError) -> String? {
        guard let name else { return nil }
        guard type == .transformable else {
            throw .parse(file: file, detail: "attribute \(entity).\(property): \"class\" is for transformable attributes (the Codable type they hold), not \(type.rawValue)")
        }
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "_.[]<>:, ?"))
        guard let first = name.unicodeScalars.first, CharacterSet.letters.union(CharacterSet(charactersIn: "_[")).contains(first),
              name.unicodeScalars.allSatisfy(allowed.contains) else {
            throw .parse(file: file, detail: "attribute \(entity).\(property): class '\(name)' is not a Swift type name")
        }
        return name
    }

    private static func decodeRelationship(_ value: JSONValue, entity: String, index: Int, file: String) throws(ModelError) -> RelationshipDescription {
        var obj = try JSONObject(value, context: "entity \(entity): relationships[\(index)]", file: file)
        let name = try obj.string("name", required: true)!
        obj.context = { "relationship \(entity).\(name)" }
        try obj.allowOnly(AllowedKeys.relationship)
        let ruleName = try obj.string("deleteRule") ?? DeleteRule.nullify.rawValue
        guard let rule = DeleteRule(rawValue: ruleName) else {
            throw .parse(file: file, detail: "\(obj.context()): unknown deleteRule '\(ruleName)' (expected \(DeleteRule.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        return RelationshipDescription(
            name: name,
            destination: try obj.string("destination", required: true)!,
            // A missing inverse is reported by model validation as `missingInverse`.
            inverse: try obj.string("inverse") ?? "",
            isToMany: try obj.bool("toMany", default: false),
            isOrdered: try obj.bool("ordered", default: false),
            isOptional: try obj.bool("optional", default: true),
            minCount: try obj.int("minCount"), maxCount: try obj.int("maxCount"),
            deleteRule: rule,
            isTransient: try obj.bool("transient", default: false),
            renamingIdentifier: try obj.string("renamingIdentifier"))
    }

    /// Interprets a JSON scalar as a default value of `type`.
    static func decodeDefault(_ raw: JSONValue, type: AttributeType, entity: String, property: String) throws(ModelError) -> Value {
        func invalid(_ detail: String) -> ModelError { .invalidDefault(entity: entity, property: property, detail: detail) }
        if case .null = raw { return .null }
        switch type {
        case .date:
            switch raw {
            case .string(let s):
                do { return .date(try ISODate.parse(s)) } catch { throw invalid(error.description) }
            case .integer(let i): return .date(Date(timeIntervalSince1970: Double(i)))
            case .number(let n): return .date(Date(timeIntervalSince1970: n))
            default: throw invalid("a date default must be an ISO 8601 string or seconds since 1970")
            }
        case .binary:
            guard case .string(let s) = raw, let d = Data(base64Encoded: s) else { throw invalid("a binary default must be a base64 string") }
            return .data(d)
        case .uuid:
            guard case .string(let s) = raw, let u = UUID(uuidString: s) else { throw invalid("a UUID default must be a UUID string") }
            return .uuid(u)
        case .uri:
            guard case .string(let s) = raw, let u = URL(string: s) else { throw invalid("a URI default must be a URL string") }
            return .uri(u)
        case .decimal:
            switch raw {
            case .string(let s):
                guard let d = Decimal(string: s, locale: Locale(identifier: "en_US_POSIX")) else { throw invalid("'\(s)' is not a decimal number") }
                return .decimal(d)
            case .integer(let i): return .decimal(Decimal(i))
            case .number(let n): return .decimal(Decimal(string: "\(n)") ?? Decimal(n))
            default: throw invalid("a decimal default must be a number or a numeric string")
            }
        case .double, .float:
            switch raw {
            case .integer(let i): return .double(Double(i))
            case .number(let n): return .double(n)
            case .string(let s):
                // Non-finite values cannot be JSON numbers.
                guard let d = Double(s) else { throw invalid("'\(s)' is not a number") }
                return .double(d)
            default: break
            }
        default: break
        }
        switch raw {
        case .bool(let b): return .bool(b)
        case .integer(let i): return .integer(i)
        case .number(let n): return .double(n)
        case .string(let s): return .string(s)
        case .null: return .null
        case .array, .object: throw invalid("a default value must be a JSON scalar")
        }
    }

    /// JSONSerialization's description of a syntax error ("Invalid value around character 27."),
    /// with the character offset turned into a line and column.
    private static func syntaxErrorDetail(_ data: Data) -> String? {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return nil
        } catch {
            guard var text = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String else { return nil }
            if let range = text.range(of: "around character "),
               let offset = Int(text[range.upperBound...].prefix { $0.isNumber }) {
                text += " (\(lineAndColumn(ofByte: offset, in: data)))"
            }
            return text
        }
    }

    /// Where this reader stopped, for text `JSONSerialization` accepts (a lone surrogate escape).
    private static func describe(_ failure: JSONValueReader.Failure, in data: Data) -> String {
        "\(failure.message) (\(lineAndColumn(ofByte: failure.offset, in: data)))"
    }

    /// "line L, column C" (1-based) of the byte at `offset`.
    private static func lineAndColumn(ofByte offset: Int, in data: Data) -> String {
        let prefix = data.prefix(offset)
        let line = prefix.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        let column = offset - (prefix.lastIndex(of: 0x0A).map { $0 - data.startIndex + 1 } ?? 0) + 1
        return "line \(line), column \(column)"
    }

    // MARK: Encoding

    /// The top-level `versionIdentifier` of a document `decode` accepted.
    static func versionIdentifier(_ data: Data) -> String? {
        guard case .object(let top)? = try? JSONValueReader.read(data), case .string(let v)? = top["versionIdentifier"] else { return nil }
        return v
    }

    static func encode(_ entities: [EntityDescription], versionIdentifier: String? = nil) -> Data {
        var top: [String: JSONValue] = ["entities": .array(entities.sorted { $0.name < $1.name }.map(encodeEntity))]
        if let versionIdentifier { top["versionIdentifier"] = .string(versionIdentifier) }
        // Non-finite doubles are written as strings: every value is valid JSON.
        return JSONValueWriter.prettyData(.object(top))
    }

    private static func encodeEntity(_ e: EntityDescription) -> JSONValue {
        var o: [String: JSONValue] = ["name": .string(e.name)]
        if let p = e.parent { o["parent"] = .string(p) }
        if e.isAbstract { o["abstract"] = .bool(true) }
        if let r = e.renamingIdentifier { o["renamingIdentifier"] = .string(r) }
        if !e.attributes.isEmpty { o["attributes"] = .array(e.attributes.map(encodeAttribute)) }
        if !e.relationships.isEmpty { o["relationships"] = .array(e.relationships.map(encodeRelationship)) }
        if !e.uniquenessConstraints.isEmpty {
            o["uniquenessConstraints"] = .array(e.uniquenessConstraints.map { .array($0.map(JSONValue.string)) })
        }
        if !e.indexes.isEmpty {
            o["indexes"] = .array(e.indexes.map {
                .object(["name": .string($0.name), "attributes": .array($0.attributes.map(JSONValue.string))])
            })
        }
        if !e.userInfo.isEmpty { o["userInfo"] = .object(e.userInfo.mapValues(JSONValue.string)) }
        return .object(o)
    }

    private static func encodeAttribute(_ a: AttributeDescription) -> JSONValue {
        var o: [String: JSONValue] = ["name": .string(a.name), "type": .string(a.type.rawValue)]
        if !a.isOptional { o["optional"] = .bool(false) }
        if a.isTransient { o["transient"] = .bool(true) }
        if let d = a.defaultValue { o["default"] = encodeDefault(d) }
        if let m = a.minValue { o["min"] = encodeNumber(m) }
        if let m = a.maxValue { o["max"] = encodeNumber(m) }
        if let r = a.regex { o["regex"] = .string(r) }
        if a.isIndexed { o["indexed"] = .bool(true) }
        if a.preservesValueInHistoryOnDeletion { o["preserveOnDeletion"] = .bool(true) }
        if let r = a.renamingIdentifier { o["renamingIdentifier"] = .string(r) }
        if let c = a.customClassName { o["class"] = .string(c) }
        if a.type == .composite { o["elements"] = .array(a.elements.map(encodeAttribute)) }
        if let c = a.compositeName { o["composite"] = .string(c) }
        return .object(o)
    }

    private static func encodeRelationship(_ r: RelationshipDescription) -> JSONValue {
        var o: [String: JSONValue] = ["name": .string(r.name), "destination": .string(r.destination)]
        if !r.inverse.isEmpty { o["inverse"] = .string(r.inverse) }
        if r.isToMany { o["toMany"] = .bool(true) }
        if r.isOrdered { o["ordered"] = .bool(true) }
        if !r.isOptional { o["optional"] = .bool(false) }
        if let m = r.minCount { o["minCount"] = .integer(Int64(m)) }
        if let m = r.maxCount { o["maxCount"] = .integer(Int64(m)) }
        if r.deleteRule != .nullify { o["deleteRule"] = .string(r.deleteRule.rawValue) }
        if r.isTransient { o["transient"] = .bool(true) }
        if let id = r.renamingIdentifier { o["renamingIdentifier"] = .string(id) }
        return .object(o)
    }

    private static func encodeNumber(_ d: Double) -> JSONValue {
        if !d.isFinite { return .string("\(d)") }
        if d == d.rounded(), abs(d) < 9e15 { return .integer(Int64(d)) }
        return .number(d)
    }

    static func encodeDefault(_ v: Value) -> JSONValue {
        switch v {
        case .null: return .null
        case .integer(let i): return .integer(i)
        case .double(let d): return d.isFinite ? .number(d) : .string("\(d)")
        case .decimal(let d): return .string("\(d)")
        case .string(let s): return .string(s)
        case .bool(let b): return .bool(b)
        case .date(let d):
            let text = Value.iso8601(d)
            if Value.parseISO8601(text) == d { return .string(text) }
            return .number(d.timeIntervalSince1970)
        case .data(let d): return .string(d.base64EncodedString())
        case .uuid(let u): return .string(u.uuidString)
        case .uri(let u): return .string(u.absoluteString)
        }
    }
}

// MARK: - JSON values

/// A parsed JSON value. Integers are kept apart from other numbers so that 64-bit
/// integers survive exactly.
enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .integer, .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// The keys each kind of object may hold, made once (a set per object decoded was a
/// fifth of reading a store's model back).
private enum AllowedKeys {
    static let document: Set<String> = ["entities", "versionIdentifier"]
    static let entity: Set<String> = ["name", "parent", "abstract", "attributes", "relationships",
                                      "uniquenessConstraints", "indexes", "userInfo", "renamingIdentifier"]
    static let index: Set<String> = ["name", "attributes"]
    static let attribute: Set<String> = ["name", "type", "optional", "transient", "default", "min", "max", "regex",
                                         "indexed", "preserveOnDeletion", "renamingIdentifier", "class", "elements", "composite"]
    static let relationship: Set<String> = ["name", "destination", "inverse", "toMany", "ordered", "optional", "minCount",
                                            "maxCount", "deleteRule", "transient", "renamingIdentifier"]
}

/// A JSON object being decoded, with the context used in error messages: made only
/// when a message is (the text was built for every object read).
private struct JSONObject {
    let fields: [String: JSONValue]
    var context: () -> String
    let file: String

    init(_ value: JSONValue, context: @autoclosure @escaping () -> String, file: String) throws(ModelError) {
        guard case .object(let fields) = value else {
            throw .parse(file: file, detail: "\(context()): expected an object, found \(value.kindName)")
        }
        self.fields = fields
        self.context = context
        self.file = file
    }

    func error(_ detail: String) -> ModelError { .parse(file: file, detail: "\(context()): \(detail)") }

    /// Refuses the first unknown key in sorted order (a stable message whatever the order read).
    func allowOnly(_ keys: Set<String>) throws(ModelError) {
        guard let key = fields.keys.filter({ !keys.contains($0) }).min() else { return }
        throw error("unknown key '\(key)' (expected one of \(keys.sorted().joined(separator: ", ")))")
    }

    func string(_ key: String, required: Bool = false) throws(ModelError) -> String? {
        switch fields[key] {
        case nil, .null?:
            if required { throw error("missing key '\(key)'") }
            return nil
        case .string(let s)?: return s
        case let other?: throw error("'\(key)' must be a string, found \(other.kindName)")
        }
    }

    func bool(_ key: String, default value: Bool) throws(ModelError) -> Bool {
        switch fields[key] {
        case nil, .null?: return value
        case .bool(let b)?: return b
        case let other?: throw error("'\(key)' must be true or false, found \(other.kindName)")
        }
    }

    func double(_ key: String) throws(ModelError) -> Double? {
        switch fields[key] {
        case nil, .null?: return nil
        case .integer(let i)?: return Double(i)
        case .number(let d)?: return d
        case .string(let s)?:
            guard let d = Double(s) else { throw error("'\(key)' must be a number, found '\(s)'") }
            return d
        case let other?: throw error("'\(key)' must be a number, found \(other.kindName)")
        }
    }

    func int(_ key: String) throws(ModelError) -> Int? {
        switch fields[key] {
        case nil, .null?: return nil
        case .integer(let i)?: return Int(i)
        case let other?: throw error("'\(key)' must be an integer, found \(other.kindName)")
        }
    }

    func array(_ key: String, required: Bool = false) throws(ModelError) -> [JSONValue] {
        switch fields[key] {
        case nil, .null?:
            if required { throw error("missing key '\(key)'") }
            return []
        case .array(let a)?: return a
        case let other?: throw error("'\(key)' must be an array, found \(other.kindName)")
        }
    }

    func stringArray(_ key: String) throws(ModelError) -> [String] {
        var result: [String] = []
        for v in try array(key, required: true) {
            guard case .string(let s) = v else { throw error("'\(key)' must contain strings, found \(v.kindName)") }
            result.append(s)
        }
        return result
    }

    func object(_ key: String) throws(ModelError) -> [String: JSONValue]? {
        switch fields[key] {
        case nil, .null?: return nil
        case .object(let o)?: return o
        case let other?: throw error("'\(key)' must be an object, found \(other.kindName)")
        }
    }
}
