import Foundation

extension KeyedArchive {
    /// The archive's root decoded into plain values: NSString → string, NSNumber → number,
    /// NSArray/NSOrderedSet → array, NSSet → set, NSDictionary → dictionary, NSDate → date,
    /// NSData → data, NSUUID → data (16 bytes), NSURL → string. Any other class becomes a
    /// dictionary of its decoded fields with `$classname` naming it.
    public func decodedRoot() throws(StoreError) -> PlistValue {
        var path: Set<UInt64> = []
        return try decoded(top["root"], path: &path)
    }

    /// Decodes `value`; `path` holds the references being decoded, to refuse cycles.
    func decoded(_ value: PlistValue?, path: inout Set<UInt64>) throws(StoreError) -> PlistValue {
        if case .uid(let n)? = value {
            guard path.insert(n).inserted else { throw fail("$objects[\(n)] contains itself") }
            guard path.count <= BinaryPlistReader.maxDepth else { throw fail("objects nested deeper than \(BinaryPlistReader.maxDepth)") }
            defer { path.remove(n) }
            return try decodedObject(try resolve(value), path: &path)
        }
        return try decodedObject(try resolve(value), path: &path)
    }

    private func decodedObject(_ v: PlistValue, path: inout Set<UInt64>) throws(StoreError) -> PlistValue {
        guard let fields = v.dictionary, fields["$class"] != nil else { return v }
        let name = try className(v) ?? ""
        switch name {
        case "NSString", "NSMutableString":
            return .string(try string(v) ?? "")
        case "NSArray", "NSMutableArray", "NSOrderedSet", "NSMutableOrderedSet":
            return .array(try elements(v).map { e throws(StoreError) in try decoded(e, path: &path) })
        case "NSSet", "NSMutableSet":
            return .set(try elements(v).map { e throws(StoreError) in try decoded(e, path: &path) })
        case "NSDictionary", "NSMutableDictionary":
            var out: PlistDictionary = [:]
            for entry in try entries(v) { out[entry.key] = try decoded(entry.value, path: &path) }
            return .dictionary(out)
        case "NSDate":
            switch fields["NS.time"] {
            case .real(let t)?: return .date(t)
            case .integer(let t)?: return .date(Double(t))
            default: throw fail("NSDate without NS.time")
            }
        case "NSData", "NSMutableData":
            guard let d = try resolve(fields["NS.data"]).data else { throw fail("NSData without NS.data") }
            return .data(d)
        case "NSUUID":
            guard let d = try resolve(fields["NS.uuidbytes"]).data, d.count == 16 else { throw fail("NSUUID without 16 NS.uuidbytes") }
            return .data(d)
        case "NSURL":
            let relative = try string(fields["NS.relative"]) ?? ""
            let base = try string(fields["NS.base"])
            return .string(base.map { URL(string: relative, relativeTo: URL(string: $0))?.absoluteString ?? relative } ?? relative)
        default:
            var out: PlistDictionary = ["$classname": .string(name)]
            for (key, field) in fields where key != "$class" { out[key] = try decoded(field, path: &path) }
            return .dictionary(out)
        }
    }
}
