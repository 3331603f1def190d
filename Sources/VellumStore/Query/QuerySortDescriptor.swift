import Foundation

/// One sort key: a key path (attributes, through to-one relationships, or a
/// to-many relationship's `@count`), a direction and how strings compare. SQL (`QueryCompiler`) and memory
/// (`QuerySortDescriptor.compare`) order identically; ties are broken by primary key.
public struct QuerySortDescriptor: Sendable, Hashable, CustomStringConvertible {
    public enum Comparison: String, Sendable, Hashable, CaseIterable {
        /// UTF-8 byte order (SQLite's BINARY).
        case binary
        /// Case-insensitive (`VELLUM_NOCASE`), `[c]` in sort strings.
        case caseInsensitive
        /// Case- and diacritic-insensitive with numeric digit runs (`VELLUM_LOCALIZED`), `[l]`.
        case localizedStandard
    }

    public var keyPath: [String]
    public var ascending: Bool
    public var comparison: Comparison

    public init(_ keyPath: String, ascending: Bool = true, comparison: Comparison = .binary) {
        self.keyPath = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        self.ascending = ascending
        self.comparison = comparison
    }

    public init(keyPath: [String], ascending: Bool = true, comparison: Comparison = .binary) {
        self.keyPath = keyPath
        self.ascending = ascending
        self.comparison = comparison
    }

    /// The sort-string form: `-price`, `name[c]`.
    public var description: String {
        (ascending ? "" : "-") + keyPath.joined(separator: ".")
            + (comparison == .caseInsensitive ? "[c]" : comparison == .localizedStandard ? "[l]" : "")
    }

    /// Parses `"name,-price,title[c],provider.name[l]"`: comma-separated key
    /// paths, a leading `-` for descending (`+` for ascending is accepted), an
    /// optional `[c]` (case-insensitive) or `[l]` (localized standard) suffix.
    public static func parseList(_ text: String) throws(StoreError) -> [QuerySortDescriptor] {
        do { return try parsingList(text) } catch { throw .parse(error) }
    }

    static func parsingList(_ text: String) throws(ParseError) -> [QuerySortDescriptor] {
        var result: [QuerySortDescriptor] = []
        var offset = 0
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            defer { offset += part.count + 1 }
            let leading = part.prefix { $0 == " " }.count
            var s = part.drop { $0 == " " }
            while s.last == " " { s = s.dropLast() }
            var position = offset + leading
            guard !s.isEmpty else { throw ParseError(position: position, expected: "a key path to sort by", found: offset + leading >= text.count ? "end of input" : "','") }
            var ascending = true
            if s.first == "-" || s.first == "+" { ascending = s.first == "+"; s = s.dropFirst(); position += 1 }
            var comparison = Comparison.binary
            if s.hasSuffix("]"), let open = s.lastIndex(of: "[") {
                let flag = s[s.index(after: open)..<s.index(before: s.endIndex)].lowercased()
                switch flag {
                case "c": comparison = .caseInsensitive
                case "l", "cd", "ld": comparison = .localizedStandard
                default:
                    throw ParseError(position: position + s.distance(from: s.startIndex, to: open) + 1,
                                     expected: "a sort option c (case-insensitive) or l (localized)", found: "'\(flag)'")
                }
                s = s[..<open]
            }
            let keys = s.split(separator: ".", omittingEmptySubsequences: false)
            var keyOffset = position
            for (n, k) in keys.enumerated() {
                let isCount = k == "@count" && n > 0 && n == keys.count - 1
                let ok = isCount || k.first.map { $0 == "_" || $0.isLetter } == true && k.allSatisfy { $0 == "_" || $0.isLetter || $0.isNumber }
                guard ok else {
                    throw ParseError(position: keyOffset, expected: "a key name", found: k.isEmpty ? "'.'" : "'\(k)'")
                }
                keyOffset += k.count + 1
            }
            result.append(QuerySortDescriptor(keyPath: keys.map(String.init), ascending: ascending, comparison: comparison))
        }
        return result
    }

    /// Checks that the key path leads through to-one relationships to an attribute.
    public func validate(entity: Entity, model: ManagedObjectModel) throws(StoreError) {
        do { try check(entity: entity, model: model) } catch { throw .query(error) }
    }

    /// `books` for `books.@count`: the to-many key path whose members are counted.
    var countedCollection: [String]? {
        keyPath.count > 1 && keyPath.last == Self.countKey ? Array(keyPath.dropLast()) : nil
    }

    static let countKey = "@count"

    /// The value `object` sorts by (the same value the SQL sort term selects).
    static func sortValue<S: KeyValueSource>(of d: QuerySortDescriptor, _ object: S) throws -> Value {
        if let collection = d.countedCollection { return .integer(Int64(try KeyPathComparison.objects(collection, object).count)) }
        return try KeyPathComparison.value(d.keyPath[...], object)
    }

    func check(entity: Entity, model: ManagedObjectModel) throws(QueryError) {
        if let collection = countedCollection {
            let r = try ResolvedKeyPath.resolve(collection, from: entity, model: model)
            guard let last = r.steps.last, last.relationship.isToMany, r.toManyCount == 1, r.attribute == nil else {
                throw QueryError("cannot sort by '\(keyPath.joined(separator: "."))': @count needs a key path ending at a to-many relationship")
            }
            if comparison != .binary { throw QueryError("cannot sort by '\(keyPath.joined(separator: "."))' with [c] or [l]: it is a number") }
            return
        }
        let r = try ResolvedKeyPath.resolve(keyPath, from: entity, model: model)
        if r.toManyIndex != nil { throw QueryError("cannot sort by '\(keyPath.joined(separator: "."))': it crosses a to-many relationship") }
        if r.attribute == nil { throw QueryError("cannot sort by '\(keyPath.joined(separator: "."))': it is a relationship, not an attribute") }
    }

    /// Orders two objects by `descriptors`, then by object ID (primary key
    /// ascending), exactly as the SQL `ORDER BY` from `QueryCompiler` does:
    /// NULL first ascending (last descending), numbers numerically, strings by
    /// UTF-8 bytes or the VELLUM_NOCASE / VELLUM_LOCALIZED collations.
    public static func compare<S: KeyValueSource>(_ a: S, _ b: S, descriptors: [QuerySortDescriptor]) throws -> ComparisonResult {
        for d in descriptors {
            let x = try sortValue(of: d, a)
            let y = try sortValue(of: d, b)
            var c = ValueOrdering.compare(x, y, comparison: d.comparison)
            if !d.ascending { c = -c }
            if c != 0 { return c < 0 ? .orderedAscending : .orderedDescending }
        }
        let ia = a.sourceObjectID, ib = b.sourceObjectID
        if ia < ib { return .orderedAscending }
        if ib < ia { return .orderedDescending }
        return .orderedSame
    }

    /// Sorts objects in memory with `compare`.
    public static func sort<S: KeyValueSource>(_ objects: [S], by descriptors: [QuerySortDescriptor]) throws -> [S] {
        var failure: (any Error)?
        let sorted = objects.sorted { a, b in
            do { return try compare(a, b, descriptors: descriptors) == .orderedAscending } catch {
                if failure == nil { failure = error }
                return false
            }
        }
        if let failure { throw failure }
        return sorted
    }
}

typealias KeyPathComparison = Comparison
