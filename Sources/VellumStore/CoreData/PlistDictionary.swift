/// A property-list dictionary as read from a file: its entries in file order, looked up by a
/// linear scan.
///
/// An archived object has a handful of keys (a model cache's property descriptions about
/// twenty), and a model cache has tens of thousands of them: a scan that compares lengths
/// before bytes costs less than hashing every key when the object is read and again when a
/// field is looked up. Lookup is O(n) in the entry count, building O(1) per entry.
/// A key that occurs twice keeps its last value, as a hashed dictionary would.
public struct PlistDictionary: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    public private(set) var keys: [String]
    public private(set) var values: [PlistValue]

    public init() { keys = []; values = [] }

    public init(minimumCapacity n: Int) {
        keys = []; values = []
        keys.reserveCapacity(n); values.reserveCapacity(n)
    }

    public init(_ dictionary: [String: PlistValue]) {
        keys = Array(dictionary.keys)
        values = keys.map { dictionary[$0]! }
    }

    public init(dictionaryLiteral elements: (String, PlistValue)...) {
        self.init(minimumCapacity: elements.count)
        for (k, v) in elements { self[k] = v }
    }

    public var count: Int { keys.count }
    public var isEmpty: Bool { keys.isEmpty }

    /// The position of `key`'s last occurrence.
    private func index(of key: String) -> Int? {
        let length = key.utf8.count
        var i = keys.count - 1
        while i >= 0 {
            let k = keys[i]
            if k.utf8.count == length && k == key { return i }
            i -= 1
        }
        return nil
    }

    public subscript(key: String) -> PlistValue? {
        get { index(of: key).map { values[$0] } }
        set {
            if let i = index(of: key) {
                if let newValue { values[i] = newValue } else { keys.remove(at: i); values.remove(at: i) }
            } else if let newValue {
                keys.append(key); values.append(newValue)
            }
        }
    }

    /// Appends an entry without looking for an earlier one (the reader's path; a later
    /// duplicate still wins on lookup).
    mutating func append(_ key: String, _ value: PlistValue) {
        keys.append(key); values.append(value)
    }

    /// The entries with their last value per key, as a Swift dictionary.
    public var byKey: [String: PlistValue] {
        Dictionary(zip(keys, values), uniquingKeysWith: { _, last in last })
    }

    /// The entries in file order.
    public func makeIterator() -> Zip2Sequence<[String], [PlistValue]>.Iterator { zip(keys, values).makeIterator() }

    /// Equal when both map the same keys to equal values, whatever their order.
    public static func == (a: PlistDictionary, b: PlistDictionary) -> Bool {
        a.byKey == b.byKey
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(byKey) }
}
