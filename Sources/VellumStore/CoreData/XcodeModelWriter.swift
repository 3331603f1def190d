import Foundation

/// Writes a model as an Xcode model `contents` file (the XML inside an `.xcdatamodel`
/// folder), so a user who lost a store's model source gets it back. What
/// `XcodeModelReader` reads back equals the model; transformer names, class names, hash
/// modifiers and derivations come from the Core Data details.
public enum XcodeModelWriter {
    public static func contents(_ m: CoreDataModel) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
        out += "<model type=\"com.apple.IDECoreDataModeler.DataModel\" documentVersion=\"1.0\" minimumToolsVersion=\"Automatic\" systemVersion=\"Vellum\">\n"
        var composites = CompositeDefinitions()
        for e in m.model.entityDescriptions {
            let d = m.details[e.name] ?? CoreDataEntityDetails()
            out += "    <entity" + attributes([("name", e.name), ("representedClassName", d.className), ("parentEntity", e.parent),
                                                ("isAbstract", e.isAbstract ? "YES" : nil), ("versionHashModifier", d.versionHashModifier),
                                                ("elementID", e.renamingIdentifier)]) + ">\n"
            for a in e.attributes {
                out += "        <attribute" + attributes(attribute(a, m.details(entity: e.name, property: a.name), &composites)) + "/>\n"
            }
            for r in e.relationships { out += "        <relationship" + attributes(relationship(r, m.details(entity: e.name, property: r.name))) + "/>\n" }
            out += list("uniquenessConstraints", "uniquenessConstraint", "constraint", e.uniquenessConstraints)
            // Indexes the Xcode reader named "compound_…" came from <compoundIndexes>; others are fetch indexes.
            let compound = e.indexes.filter { $0.name.hasPrefix("compound_") }
            out += list("compoundIndexes", "compoundIndex", "index", compound.map(\.attributes))
            for index in e.indexes where !index.name.hasPrefix("compound_") {
                out += "        <fetchIndex" + attributes([("name", index.name)]) + ">\n"
                for p in index.attributes { out += "            <fetchIndexElement" + attributes([("property", p), ("type", "Binary"), ("order", "ascending")]) + "/>\n" }
                out += "        </fetchIndex>\n"
            }
            if !e.userInfo.isEmpty {
                out += "        <userInfo>\n"
                for (k, v) in e.userInfo.sorted(by: { $0.key < $1.key }) { out += "            <entry" + attributes([("key", k), ("value", v)]) + "/>\n" }
                out += "        </userInfo>\n"
            }
            out += "    </entity>\n"
        }
        // Definitions are named as they are met, so nested ones are added while writing.
        var written = 0
        while written < composites.definitions.count {
            let (name, elements) = composites.definitions[written]
            written += 1
            out += "    <composite" + attributes([("name", name)]) + (elements.isEmpty ? "/>\n" : ">\n")
            for a in elements { out += "        <attribute" + attributes(attribute(a, CoreDataPropertyDetails(), &composites)) + "/>\n" }
            if !elements.isEmpty { out += "    </composite>\n" }
        }
        return out + "</model>\n"
    }

    /// The model's `<composite>` definitions: one per distinct element list, named by
    /// the attribute's `compositeName` (else its capitalized name), numbered on a clash.
    struct CompositeDefinitions {
        private(set) var definitions: [(name: String, elements: [AttributeDescription])] = []
        private var names: [String: [AttributeDescription]] = [:]

        mutating func name(for a: AttributeDescription) -> String {
            let base = a.compositeName ?? (a.name.prefix(1).uppercased() + a.name.dropFirst())
            var candidate = base, n = 1
            while let taken = names[candidate] {
                if taken == a.elements { return candidate }
                n += 1
                candidate = "\(base)\(n)"
            }
            names[candidate] = a.elements
            definitions.append((candidate, a.elements))
            return candidate
        }
    }

    /// Writes `folder/contents` (the folder is created; an existing `contents` is refused),
    /// through a temporary file renamed into place.
    public static func write(_ m: CoreDataModel, toFolder folder: String) throws(StoreError) {
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw .unusableFile(path: folder, reason: "cannot create the folder: \(ErrorText.reason(error))")
        }
        do { try SafeFileWriter().write(contents(m), to: (folder as NSString).appendingPathComponent("contents"), replacing: false) } catch let error as FileWriteError {
            throw .fileWrite(error)
        } catch {
            throw .unusableFile(path: folder, reason: ErrorText.reason(error))
        }
    }

    private static func attribute(_ a: AttributeDescription, _ d: CoreDataPropertyDetails,
                                  _ composites: inout CompositeDefinitions) -> [(String, String?)] {
        var fields: [(String, String?)] = [("name", a.name), ("optional", a.isOptional ? "YES" : nil), ("transient", a.isTransient ? "YES" : nil),
                                           ("attributeType", xcodeType(a.type))]
        if a.type == .composite { fields.append(("composite", composites.name(for: a))) }
        switch a.defaultValue {
        case .date(let date)?: fields.append(("defaultDateTimeInterval", "\(date.timeIntervalSinceReferenceDate)"))
        case let v?: fields.append(("defaultValueString", defaultText(v)))
        case nil: break
        }
        fields += [("indexed", a.isIndexed ? "YES" : nil), ("valueTransformerName", d.valueTransformerName),
                   ("allowsExternalBinaryDataStorage", d.allowsExternalStorage ? "YES" : nil),
                   ("preserveAfterDeletion", a.preservesValueInHistoryOnDeletion ? "YES" : nil),
                   ("derived", d.derivationExpression == nil ? nil : "YES"), ("derivationExpression", d.derivationExpression),
                   ("versionHashModifier", d.versionHashModifier), ("elementID", a.renamingIdentifier)]
        return fields
    }

    private static func relationship(_ r: RelationshipDescription, _ d: CoreDataPropertyDetails) -> [(String, String?)] {
        // Core Data has no set-default rule: the nearest is to clear the inverse.
        let rules: [DeleteRule: String] = [.nullify: "Nullify", .cascade: "Cascade", .deny: "Deny", .noAction: "No Action", .setDefault: "Nullify"]
        return [("name", r.name), ("optional", r.isOptional ? "YES" : nil), ("transient", r.isTransient ? "YES" : nil),
                ("toMany", r.isToMany ? "YES" : nil), ("ordered", r.isOrdered ? "YES" : nil),
                ("minCount", r.minCount.map(String.init) ?? (!r.isToMany && !r.isOptional ? "1" : nil)),
                ("maxCount", r.maxCount.map(String.init) ?? (r.isToMany ? nil : "1")),
                ("deletionRule", rules[r.deleteRule]), ("destinationEntity", r.destination), ("inverseName", r.inverse),
                ("inverseEntity", r.destination), ("versionHashModifier", d.versionHashModifier), ("elementID", r.renamingIdentifier)]
    }

    static func xcodeType(_ t: AttributeType) -> String {
        switch t {
        case .integer16: return "Integer 16"
        case .integer32: return "Integer 32"
        case .integer64: return "Integer 64"
        case .decimal: return "Decimal"
        case .double: return "Double"
        case .float: return "Float"
        case .string: return "String"
        case .boolean: return "Boolean"
        case .date: return "Date"
        case .binary: return "Binary"
        case .uuid: return "UUID"
        case .uri: return "URI"
        case .transformable: return "Transformable"
        case .undefined: return "Undefined"
        case .composite: return "Composite"
        }
    }

    private static func defaultText(_ v: Value) -> String {
        switch v {
        case .bool(let b): return b ? "YES" : "NO"
        case .integer(let i): return String(i)
        case .double(let d): return "\(d)"
        case .decimal(let d): return "\(d)"
        case .string(let s): return s
        case .uuid(let u): return u.uuidString
        case .uri(let u): return u.absoluteString
        case .date(let d): return "\(d.timeIntervalSinceReferenceDate)"
        case .data, .null: return ""
        }
    }

    private static func list(_ outer: String, _ inner: String, _ item: String, _ lists: [[String]]) -> String {
        guard !lists.isEmpty else { return "" }
        var out = "        <\(outer)>\n"
        for l in lists {
            out += "            <\(inner)>\n"
            for name in l { out += "                <\(item)" + attributes([("value", name)]) + "/>\n" }
            out += "            </\(inner)>\n"
        }
        return out + "        </\(outer)>\n"
    }

    /// ` key="value"` for each present value, XML-escaped.
    private static func attributes(_ fields: [(String, String?)]) -> String {
        fields.compactMap { k, v in v.map { " \(k)=\"\(escaped($0))\"" } }.joined()
    }

    private static let entities: [Character: String] = ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "\n": "&#10;"]

    private static func escaped(_ s: String) -> String { s.map { entities[$0] ?? String($0) }.joined() }
}
