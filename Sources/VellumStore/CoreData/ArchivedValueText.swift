import Foundation

/// How a transformable value (bytes a value transformer wrote; Core Data's default is
/// NSKeyedArchiver) is shown: decoded when it is a keyed archive of standard Foundation
/// classes (strings, numbers, arrays, sets, dictionaries, dates, data, UUIDs, URLs),
/// otherwise as its bytes with the archived class name and the reason. Decoded by Vellum's
/// own `KeyedArchive` walk (references, cycles and depth checked; no class is instantiated),
/// never by running an unarchiver on the stored bytes.
public enum ArchivedValueText {
    public enum Decoded: Sendable, Equatable {
        /// A keyed archive of standard classes, as JSON-like text.
        case value(String)
        /// A keyed archive that is not shown decoded: its root's class (when known) and why.
        case undecoded(className: String?, reason: String)
        /// Not a keyed archive (another transformer's bytes).
        case notAnArchive
    }

    /// Classes whose archived form `KeyedArchive.decodedRoot` turns into plain values.
    static let standardClasses: Set<String> = [
        "NSString", "NSMutableString", "NSArray", "NSMutableArray", "NSOrderedSet", "NSMutableOrderedSet", "NSSet", "NSMutableSet",
        "NSDictionary", "NSMutableDictionary", "NSDate", "NSData", "NSMutableData", "NSUUID", "NSURL", "NSNumber",
    ]

    public static func decode(_ data: Data) -> Decoded {
        guard data.starts(with: Data("bplist00".utf8)) else { return .notAnArchive }
        let archive: KeyedArchive
        do { archive = try KeyedArchive(data: data, what: "transformable value") } catch { return .notAnArchive }
        let rootClass = try? archive.className(archive.root())
        let value: PlistValue
        do { value = try archive.decodedRoot() } catch {
            return .undecoded(className: rootClass, reason: "damaged archive: \(error)")
        }
        if let other = firstOtherClass(value) {
            return .undecoded(className: rootClass ?? other, reason: "\(other) is not a standard Foundation class (the app's own transformer or class)")
        }
        return .value(text(value))
    }

    /// What a cell shows for the bytes of a transformable value; nil when they are not a keyed
    /// archive (shown as bytes, as any binary).
    public static func displayText(_ data: Data) -> String? {
        switch decode(data) {
        case .value(let text): return text
        case .undecoded(let className, let reason):
            return "\(Value.data(data).description) \(className ?? "archive") (not decoded: \(reason))"
        case .notAnArchive: return nil
        }
    }

    /// The first class left undecoded (a dictionary naming `$classname`), depth first.
    private static func firstOtherClass(_ v: PlistValue) -> String? {
        switch v {
        case .dictionary(let d):
            if let name = d["$classname"]?.string { return name }
            for key in d.keys.sorted() { if let found = firstOtherClass(d[key]!) { return found } }
            return nil
        case .array(let a), .set(let a):
            for e in a { if let found = firstOtherClass(e) { return found } }
            return nil
        default: return nil
        }
    }

    /// JSON-like text: strings quoted, dictionaries by key, dates in ISO 8601, data as bytes.
    static func text(_ v: PlistValue) -> String {
        switch v {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .integer(let i): return String(i)
        case .unsignedInteger(let u): return String(u)
        case .real(let d): return Value.double(d).description
        case .date(let t): return Value.date(Date(timeIntervalSinceReferenceDate: t)).description
        case .data(let d): return Value.data(d).description
        case .string(let s): return QuotedString.quoted(s, .json)
        case .uid(let n): return "$objects[\(n)]"
        case .array(let a): return "[" + a.map(text).joined(separator: ", ") + "]"
        case .set(let a): return "{" + a.map(text).sorted().joined(separator: ", ") + "}"
        case .dictionary(let d): return "{" + d.keys.sorted().map { QuotedString.quoted($0, .json) + ": " + text(d[$0]!) }.joined(separator: ", ") + "}"
        }
    }
}
