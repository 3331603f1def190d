import CZlib
import Foundation
import VellumStore

/// `coredata-open-model-large`: the fixture stores' models are small (Moody: 4 entities),
/// so this one is made: a compiled model of `entityCount` entities — every tenth a
/// sub-entity, 14 attributes of every type each, a to-one and its inverse to-many between
/// neighbouring roots — archived as Core Data archives its cache, raw-DEFLATE compressed
/// into a copy of the Moody fixture, whose metadata gets the model's version hashes.
enum CoreDataLargeModel {
    static let entityCount = 300
    /// Core Data attribute type codes, in the order each entity's attributes take them.
    static let typeCodes: [Int64] = [100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1100, 1200, 1800, 700]

    /// Writes the store at `url` (a copy of `fixture`); returns its entity and property counts.
    static func make(at url: URL, from fixture: URL) throws -> (entities: Int, properties: Int) {
        if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
        try FileManager.default.copyItem(at: fixture, to: url)
        let (archive, properties) = archiveData()
        let decoded = try ModelCacheDecoder.decode(KeyedArchive(data: archive, what: "large model"))
        let hashes = CoreDataVersionHash.hashes(decoded)
        let db = try Connection(path: url.path)
        guard case .data(let plistBytes)? = try db.rows("SELECT Z_PLIST FROM Z_METADATA").first?.first,
              var plist = try PropertyListSerialization.propertyList(from: plistBytes, format: nil) as? [String: Any] else {
            throw BenchError("the fixture has no metadata plist")
        }
        plist["NSStoreModelVersionHashes"] = hashes
        let metadata = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
        try db.run("UPDATE Z_METADATA SET Z_PLIST = ?", [.data(metadata)])
        try db.run("UPDATE Z_MODELCACHE SET Z_CONTENT = ?", [.data(try deflate(archive))])
        return (entityCount, properties)
    }

    /// The compiled model's keyed archive, and how many properties it declares.
    static func archiveData() -> (Data, Int) {
        var a = KeyedArchiveBuilder()
        let names = (0..<entityCount).map { String(format: "Entity%03d", $0) }
        let roots = names.indices.filter { $0 % 10 != 9 }
        var ownProperties: [[(String, PlistNode)]] = Array(repeating: [], count: entityCount)
        var declared = 0
        for i in names.indices {
            for (n, code) in typeCodes.enumerated() {
                let name = "attribute\(n)_\(i)"
                var fields: [(String, PlistNode)] = [
                    ("NSPropertyName", a.value(.string(name))), ("NSAttributeType", .integer(code)),
                    ("_P", .integer(n % 3 == 0 ? 0 : 0x2)), ("NSIsIndexed", .bool(n == 6)),
                ]
                if code == 300 { fields.append(("NSDefaultValue", .integer(0))) }
                if code == 1800 { fields.append(("NSValueTransformerName", a.value(.string("NSSecureUnarchiveFromData")))) }
                ownProperties[i].append((name, a.object("NSAttributeDescription", fields)))
                declared += 1
            }
        }
        for (k, i) in roots.enumerated() {
            let next = roots[(k + 1) % roots.count]
            let link = a.object("NSRelationshipDescription", [
                ("NSPropertyName", a.value(.string("link"))), ("NSMaxCount", .integer(1)), ("NSMinCount", .integer(0)),
                ("_P", .integer(0x2)), ("NSDeleteRule", .integer(1)),
                ("_NSDestinationEntityName", a.value(.string(names[next]))), ("_NSInverseRelationshipName", a.value(.string("linkedFrom"))),
            ])
            let inverse = a.object("NSRelationshipDescription", [
                ("NSPropertyName", a.value(.string("linkedFrom"))), ("NSMaxCount", .integer(0)), ("NSMinCount", .integer(0)),
                ("_P", .integer(0x2)), ("NSDeleteRule", .integer(1)),
                ("_NSDestinationEntityName", a.value(.string(names[i]))), ("_NSInverseRelationshipName", a.value(.string("link"))),
            ])
            ownProperties[i].append(("link", link))
            ownProperties[next].append(("linkedFrom", inverse))
            declared += 2
        }
        // Entities are archived parents first, so a sub-entity can name its parent's object.
        var entityObjects: [PlistNode] = []
        for i in names.indices {
            let isSub = i % 10 == 9
            // A sub-entity's properties repeat its parent's (as Core Data's compiled model does).
            let properties = (isSub ? ownProperties[i - 1] : []) + ownProperties[i]
            var fields: [(String, PlistNode)] = [
                ("NSEntityName", a.value(.string(names[i]))), ("NSIsAbstract", .bool(false)),
                ("NSProperties", a.dictionary(properties)),
                ("NSClassNameForEntity", a.value(.string(names[i]))),
            ]
            if isSub { fields.append(("NSSuperentity", entityObjects[i - 1])) }
            if i % 20 == 0 { fields.append(("NSUniqueTuples", .array([.array([a.value(.string("attribute6_\(i)"))])]))) }
            entityObjects.append(a.object("NSEntityDescription", fields))
        }
        let root = a.object("NSManagedObjectModel", [("NSEntities", a.dictionary(Array(zip(names, entityObjects))))])
        return (a.data(root: root), declared)
    }

    /// Raw DEFLATE (no zlib header), as `Z_MODELCACHE` holds it.
    static func deflate(_ input: Data) throws -> Data {
        var stream = z_stream()
        guard deflateInit2_(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY,
                            ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { throw BenchError("deflateInit2 failed") }
        defer { deflateEnd(&stream) }
        var source = [UInt8](input)
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(source.count))))
        let status = source.withUnsafeMutableBufferPointer { src in
            output.withUnsafeMutableBufferPointer { dst -> Int32 in
                stream.next_in = src.baseAddress
                stream.avail_in = uInt(src.count)
                stream.next_out = dst.baseAddress
                stream.avail_out = uInt(dst.count)
                return CZlib.deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { throw BenchError("deflate: \(status)") }
        return Data(output.prefix(Int(stream.total_out)))
    }
}
