import Foundation

/// Reads a whole binary property list (`bplist00`) into values: every object type,
/// including keyed-archiver UIDs, sets, dates, reals and 128-bit integers
/// (`BinaryPlistFile` parses them). Malformed input is refused with
/// `StoreError.malformedCoreData` naming the byte offset and the reason; it never traps.
public enum BinaryPlistReader {
    static var maxDepth: Int { BinaryPlistFile.maxDepth }

    /// Decodes the whole property list. `what` names the data in error messages.
    public static func read(_ data: Data, what: String = "binary plist") throws(StoreError) -> PlistValue {
        let file = try BinaryPlistFile(bytes: [UInt8](data), what: what)
        var children = SharedChildren(count: file.objectCount)
        return try children.child(file.topObject, of: file)
    }
}

/// Each object decoded once, however many containers hold it, and cycles refused.
struct SharedChildren: PlistChildren {
    /// Objects decoded so far, by index. Arrays, not hash tables: a plist can hold tens of
    /// thousands of objects.
    private var decoded: [PlistValue?]
    /// Objects being decoded: a reference back into this path is a cycle.
    private var inProgress: [Bool]
    private var depth = 0

    init(count: Int) {
        decoded = Array(repeating: nil, count: count)
        inProgress = Array(repeating: false, count: count)
    }

    mutating func child(_ index: Int, of file: BinaryPlistFile) throws(StoreError) -> PlistValue {
        if index >= 0, index < decoded.count, let v = decoded[index] { return v }
        let at = try file.offset(ofObject: index)
        guard !inProgress[index] else { throw file.fail(at, "object \(index) contains itself") }
        // Deep nesting would exhaust the stack before any real plist gets near it.
        guard depth < BinaryPlistFile.maxDepth else { throw file.fail(at, "containers nested deeper than \(BinaryPlistFile.maxDepth)") }
        inProgress[index] = true
        depth += 1
        defer { inProgress[index] = false; depth -= 1 }
        let v = try file.parse(at: at, &self)
        decoded[index] = v
        return v
    }
}
