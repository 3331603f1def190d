import Foundation

/// A set of object IDs that keeps runs of consecutive permanent keys as ranges.
///
/// A save's event lists every ID it inserted, updated or deleted. A bulk save gives
/// its rows consecutive keys, so here 100,000 inserted IDs are one run of 24 bytes,
/// where a `Set<ObjectID>` holds them in 262,144 buckets of 32 bytes (8.4 MB, at the
/// moment of the save's peak memory).
///
/// Equality follows `ObjectID`'s: an ID of a sub-entity equals the ID of its root
/// with the same key, and the set holds one of them (the first inserted, as `Set`).
///
/// Complexity (r runs, o other IDs): `contains` is O(log r) plus a hash lookup;
/// `insert` and `remove` too, plus moving the later runs when a run is added, split,
/// joined or emptied. A key next to a run of the same entity extends it (ascending
/// keys of one entity, as a save gives them, make one run); a key that would start a
/// run amid more than 256 others is kept in a hash set instead. `count` is O(1); the
/// set operations are O(n) in their operands.
public struct ObjectIDSet: Sendable, Hashable, SetAlgebra, Sequence, CustomStringConvertible {
    public typealias Element = ObjectID

    /// Keys `first...last` of one entity, each an ID with `scope`.
    struct Run {
        let scope: ObjectIDScope
        var first: Int64
        var last: Int64
        var root: ObjectIdentifier { scope.rootIdentity }
    }

    /// Sorted by (root, first); the runs of one root are disjoint.
    private(set) var runs: [Run] = []
    /// Temporary IDs, and permanent keys that neither extend a run nor come after the last one.
    private var others: Set<ObjectID> = []
    public private(set) var count = 0

    public init() {}

    /// The IDs of `sequence`, sorted first so that consecutive keys become runs.
    public init<S: Sequence>(_ sequence: S) where S.Element == ObjectID {
        var permanent: [ObjectID] = []
        for id in sequence {
            if id.isTemporary { insert(id) } else { permanent.append(id) }
        }
        permanent.sort { a, b in
            let (ra, rb) = (a.scope.rootIdentity, b.scope.rootIdentity)
            return ra != rb ? ra < rb : a.primaryKey! < b.primaryKey!
        }
        for id in permanent { insert(id) }
    }

    public var isEmpty: Bool { count == 0 }

    /// An arbitrary member (as `Set.first`), or nil when empty.
    public var first: ObjectID? {
        var iterator = makeIterator()
        return iterator.next()
    }

    /// Past this many runs, a key that starts a run before the last one goes to `others`
    /// (so an insert never moves more than this many runs).
    private static let runsMovedAtMost = 256

    /// `b == a + 1`, without overflowing at the ends of `Int64`.
    private static func follows(_ b: Int64, _ a: Int64) -> Bool { a != .max && b == a + 1 }

    /// The index of the last run whose (root, first) is at or before (root, key), if any.
    private func runIndex(root: ObjectIdentifier, key: Int64) -> Int? {
        var low = 0, high = runs.count
        while low < high {
            let mid = (low + high) / 2
            let r = runs[mid]
            if r.root < root || (r.root == root && r.first <= key) { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? nil : low - 1
    }

    /// The run holding `id`'s key, if one does.
    private func runHolding(_ id: ObjectID) -> Int? {
        guard case .permanent(let key) = id.key else { return nil }
        let root = id.scope.rootIdentity
        guard let i = runIndex(root: root, key: key), runs[i].root == root, key <= runs[i].last else { return nil }
        return i
    }

    /// The member equal to `id`, as stored.
    private func member(_ id: ObjectID) -> ObjectID? {
        if let i = runHolding(id) { return ObjectID(scope: runs[i].scope, key: id.key) }
        return others.isEmpty ? nil : others.firstIndex(of: id).map { others[$0] }
    }

    public func contains(_ id: ObjectID) -> Bool { member(id) != nil }

    @discardableResult
    public mutating func insert(_ id: ObjectID) -> (inserted: Bool, memberAfterInsert: ObjectID) {
        if let existing = member(id) { return (false, existing) }
        count += 1
        guard case .permanent(let key) = id.key else { others.insert(id); return (true, id) }
        let scope = id.scope
        let i = runIndex(root: scope.rootIdentity, key: key)
        if let i, runs[i].scope === scope, Self.follows(key, runs[i].last) {
            runs[i].last = key
            // Now touching the next run of the same entity: one run.
            if i + 1 < runs.count, runs[i + 1].scope === scope, Self.follows(runs[i + 1].first, key) {
                runs[i].last = runs[i + 1].last
                runs.remove(at: i + 1)
            }
            return (true, id)
        }
        let next = i.map { $0 + 1 } ?? 0
        if next < runs.count, runs[next].scope === scope, Self.follows(runs[next].first, key) {
            runs[next].first = key
        } else if next == runs.count || runs.count < Self.runsMovedAtMost {
            runs.insert(Run(scope: scope, first: key, last: key), at: next)
        } else {
            // A run put here would move many later ones: kept aside instead.
            others.insert(id)
        }
        return (true, id)
    }

    @discardableResult
    public mutating func remove(_ id: ObjectID) -> ObjectID? {
        if let i = runHolding(id), case .permanent(let key) = id.key {
            count -= 1
            let run = runs[i]
            if run.first == run.last { runs.remove(at: i) } else if key == run.first { runs[i].first += 1 } else if key == run.last {
                runs[i].last -= 1
            } else {
                runs[i].last = key - 1
                runs.insert(Run(scope: run.scope, first: key + 1, last: run.last), at: i + 1)
            }
            return ObjectID(scope: run.scope, key: id.key)
        }
        guard let removed = others.remove(id) else { return nil }
        count -= 1
        return removed
    }

    @discardableResult
    public mutating func update(with id: ObjectID) -> ObjectID? {
        let old = remove(id)
        insert(id)
        return old
    }

    public func union(_ other: ObjectIDSet) -> ObjectIDSet {
        var result = self
        result.formUnion(other)
        return result
    }

    public mutating func formUnion(_ other: ObjectIDSet) {
        if isEmpty { self = other; return }
        for id in other { insert(id) }
    }

    public func intersection(_ other: ObjectIDSet) -> ObjectIDSet {
        var result = ObjectIDSet()
        // Iterating runs in order keeps the result's runs whole.
        for id in self where other.contains(id) { result.insert(id) }
        return result
    }

    public mutating func formIntersection(_ other: ObjectIDSet) { self = intersection(other) }

    public func symmetricDifference(_ other: ObjectIDSet) -> ObjectIDSet {
        var result = ObjectIDSet()
        for id in self where !other.contains(id) { result.insert(id) }
        for id in other where !contains(id) { result.insert(id) }
        return result
    }

    public mutating func formSymmetricDifference(_ other: ObjectIDSet) { self = symmetricDifference(other) }

    public func subtracting(_ other: ObjectIDSet) -> ObjectIDSet {
        var result = ObjectIDSet()
        for id in self where !other.contains(id) { result.insert(id) }
        return result
    }

    public mutating func subtract(_ other: ObjectIDSet) {
        guard !other.isEmpty, !isEmpty else { return }
        self = subtracting(other)
    }

    public func isSubset(of other: ObjectIDSet) -> Bool { count <= other.count && allSatisfy(other.contains) }

    public static func == (a: ObjectIDSet, b: ObjectIDSet) -> Bool { a.count == b.count && a.isSubset(of: b) }

    public func hash(into hasher: inout Hasher) {
        // Independent of how the members are stored or ordered (as `Set`'s).
        var sum = 0
        for id in self { sum &+= id.hashValue }
        hasher.combine(count)
        hasher.combine(sum)
    }

    public var description: String { "[" + map(\.description).joined(separator: ", ") + "]" }

    /// Runs in order (each key ascending), then the other IDs.
    public struct Iterator: IteratorProtocol {
        private let runs: [Run]
        private var run = 0
        private var key: Int64
        private var others: Set<ObjectID>.Iterator

        init(_ set: ObjectIDSet) {
            runs = set.runs
            key = set.runs.first?.first ?? 0
            others = set.others.makeIterator()
        }

        public mutating func next() -> ObjectID? {
            if run < runs.count {
                let id = ObjectID(scope: runs[run].scope, key: .permanent(key))
                if key == runs[run].last {
                    run += 1
                    if run < runs.count { key = runs[run].first }
                } else { key += 1 }
                return id
            }
            return others.next()
        }
    }

    public func makeIterator() -> Iterator { Iterator(self) }
    public var underestimatedCount: Int { count }
}

extension ObjectIDSet: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: ObjectID...) { self.init(elements) }
}
