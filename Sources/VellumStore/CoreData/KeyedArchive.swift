import Foundation

/// An NSKeyedArchiver object graph (`$objects`, `$top`, references as `CF$UID`), walked by
/// hand: Foundation's archived classes are read as plain dictionaries with a class name.
/// Every accessor checks references, so a damaged archive gives an error, never a trap.
public struct KeyedArchive: Sendable {
    /// Where `$objects` come from: the plist's bytes, each object decoded when it is
    /// resolved (a model cache holds tens of thousands of objects; the decoder reads each
    /// once or twice, on several threads for a large model, and many never), or values
    /// already decoded. Stored properties, not an enum: reading one borrows it, where
    /// binding an enum's payload would copy (retain) the file for every object.
    private let file: BinaryPlistFile?
    private let references: [Int]
    private let values: [PlistValue]
    public let top: PlistDictionary
    let what: String
    /// Each object's `$classname` when it is a class description, by object number: an
    /// archived object's class is read for every property of a model, and is one of a few
    /// classes shared by thousands of objects.
    let classNames: [String?]

    public init(plist: PlistValue, what: String = "keyed archive") throws(StoreError) {
        self.what = what
        guard let root = plist.dictionary, let objects = root["$objects"], case .array(let list) = objects,
              let top = root["$top"]?.dictionary else {
            throw .malformedCoreData(what: what, offset: nil, reason: "not an NSKeyedArchiver archive (no $objects array or $top dictionary)")
        }
        file = nil
        references = []
        values = list
        self.top = top
        classNames = list.map { $0.dictionary?["$classname"]?.string }
    }

    /// Reads an archive from the bytes of its binary plist: the root dictionary and `$top`
    /// now, the objects when they are resolved (a damaged object is reported then).
    public init(data: Data, what: String = "keyed archive") throws(StoreError) {
        self.what = what
        let file = try BinaryPlistFile(bytes: [UInt8](data), what: what)
        let notAnArchive = StoreError.malformedCoreData(what: what, offset: nil, reason: "not an NSKeyedArchiver archive (no $objects array or $top dictionary)")
        // A plist of another shape is no archive; damaged bytes are reported as such, at their offset.
        guard try file.kind(ofObject: file.topObject) == 0xD else { throw notAnArchive }
        let root = try file.entryReferences(ofObject: file.topObject)
        guard let list = root.last(where: { $0.key == "$objects" }), let topEntry = root.last(where: { $0.key == "$top" }),
              try file.kind(ofObject: list.object) == 0xA else { throw notAnArchive }
        let references = try file.elementReferences(ofObject: list.object)
        guard let top = try file.value(ofObject: topEntry.object).dictionary else { throw notAnArchive }
        self.file = file
        self.references = references
        values = []
        self.top = top
        var names: [String?] = Array(repeating: nil, count: references.count)
        for (n, index) in references.enumerated() where file.isClassDescription(index) {
            names[n] = try file.value(ofObject: index).dictionary?["$classname"]?.string
        }
        classNames = names
    }

    /// The number of objects in `$objects`.
    public var objectCount: Int { file == nil ? values.count : references.count }

    /// Object `n` of `$objects`, decoded (`n` checked by the caller, `resolve`).
    func object(at n: Int) throws(StoreError) -> PlistValue {
        if let v = try file?.value(ofObject: references[n]) { return v }
        return values[n]
    }

    func fail(_ reason: String) -> StoreError { .malformedCoreData(what: what, offset: nil, reason: reason) }

    /// Follows a reference; `$null` (and a missing value) is `.null`.
    public func resolve(_ value: PlistValue?) throws(StoreError) -> PlistValue {
        guard let value else { return .null }
        guard case .uid(let n) = value else { return value }
        guard n < UInt64(objectCount) else { throw fail("reference $objects[\(n)] of \(objectCount)") }
        let v = try object(at: Int(n))
        if case .uid = v { throw fail("$objects[\(n)] is itself a reference") }
        return v == .string("$null") ? .null : v
    }

    /// The root object (`$top.root`).
    public func root() throws(StoreError) -> PlistValue { try resolve(top["root"]) }

    /// The class name of an archived object (`$class` → `$classname`), nil for plain values.
    public func className(_ value: PlistValue) throws(StoreError) -> String? { try className(of: object(value)) }

    /// A field of an archived object, resolved.
    public func field(_ object: PlistValue, _ key: String) throws(StoreError) -> PlistValue {
        try field(self.object(object), key)
    }

    /// An archived object whose fields are read several times: resolved once, not per field.
    public func object(_ value: PlistValue) throws(StoreError) -> ArchivedObject {
        ArchivedObject(fields: try resolve(value).dictionary ?? [:])
    }

    /// A string: a plain string or an archived NSString/NSMutableString (`NS.string`).
    public func string(_ value: PlistValue?) throws(StoreError) -> String? {
        let v = try resolve(value)
        if let s = v.string { return s }
        return try v.dictionary.flatMap { d throws(StoreError) in try resolve(d["NS.string"]).string }
    }

    /// The elements of an archived NSArray/NSSet/NSOrderedSet (`NS.objects`), unresolved.
    public func elements(_ value: PlistValue?) throws(StoreError) -> [PlistValue] {
        let v = try resolve(value)
        if v == .null { return [] }
        if let list = v.elements { return list }
        guard let fields = v.dictionary, let list = fields["NS.objects"]?.elements else {
            throw fail("expected an array or set, found \(try describe(v))")
        }
        return list
    }

    /// The entries of an archived dictionary, keys resolved to strings, values unresolved.
    /// Handles NSDictionary (`NS.keys`/`NS.objects`) and Core Data's NSKnownKeysDictionary1
    /// (`searchMapping.keys` with `values`).
    public func entries(_ value: PlistValue?) throws(StoreError) -> [(key: String, value: PlistValue)] {
        let v = try resolve(value)
        if v == .null { return [] }
        guard let fields = v.dictionary else { throw fail("expected a dictionary, found \(try describe(v))") }
        let keys: [PlistValue], values: [PlistValue]
        if fields["NS.keys"] != nil {
            keys = try elements(fields["NS.keys"])
            values = try elements(fields["NS.objects"])
        } else if fields["searchMapping"] != nil {
            keys = try elements(try field(fields["searchMapping"]!, "keys"))
            values = try elements(fields["values"])
        } else {
            throw fail("expected a dictionary, found \(try describe(v))")
        }
        guard keys.count == values.count else { throw fail("dictionary with \(keys.count) keys and \(values.count) values") }
        var out: [(key: String, value: PlistValue)] = []
        for (k, value) in zip(keys, values) {
            guard let key = try string(k) else { throw fail("dictionary key is not a string: \(try describe(k))") }
            out.append((key, value))
        }
        return out
    }

    /// A short description of a value for error messages.
    func describe(_ value: PlistValue) throws(StoreError) -> String {
        if let name = try className(value) { return "an archived \(name)" }
        switch try resolve(value) {
        case .null: return "nothing"
        case .string(let s): return "the string \"\(s.prefix(40))\""
        case .integer(let i): return "the number \(i)"
        default: return "a \(String(describing: try resolve(value)).prefix(40))"
        }
    }
}

/// An archived object's fields (`KeyedArchive.object`), read with `KeyedArchive.field(_:_:)`.
/// It does not hold its archive: a model's decoder makes one per property on several
/// threads, and copying the archive into each would retain its shared storage every time.
public struct ArchivedObject: Sendable {
    public let fields: PlistDictionary
}

extension KeyedArchive {
    /// A field of an archived object, resolved (`$null` and a missing field are `.null`).
    public func field(_ object: ArchivedObject, _ key: String) throws(StoreError) -> PlistValue {
        try resolve(object.fields[key])
    }

    /// The object's class name (`$class` → `$classname`), nil for a plain value.
    public func className(of object: ArchivedObject) throws(StoreError) -> String? {
        guard let ref = object.fields["$class"] else { return nil }
        if case .uid(let n) = ref, n < UInt64(classNames.count), let name = classNames[Int(n)] { return name }
        return try resolve(ref).dictionary?["$classname"]?.string
    }
}
