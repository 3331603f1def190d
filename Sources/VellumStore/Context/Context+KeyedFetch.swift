import Foundation

extension ManagedObjectContext {
    /// Streams (ID, sort keys) of the rows a request matches, in order, without
    /// collecting them first (a million-row index is built without a second copy),
    /// selecting only the key, the entity and the sort-key columns. Unsaved changes are
    /// NOT applied (the results controller re-evaluates them in memory). `ordered: false`
    /// leaves the rows in key order: a caller that matches them by key (the
    /// refetch-and-diff) saves sorting a million rows.
    ///
    /// `firstKeyUpTo`: only rows whose first sort key comes no later than it (a first page
    /// of a grouped list reads only the sections it can reach: `SectionCounts.bound`).
    func forEachKeyedID(_ request: FetchRequest, limit: Int? = nil, ordered: Bool = true, firstKeyUpTo: Value? = nil,
                        _ body: (ObjectID, SortKeys) -> Void) throws {
        let entity = try self.entity(request.entityName)
        let (compiledQuery, terms) = try QueryCompiler.compileWithSortTerms(
            entity: entity, layout: store.layout, predicate: request.predicate,
            sortDescriptors: request.sortDescriptors, variables: request.variables)
        var query = compiledQuery
        if !request.includesSubentities, !entity.subentityNames.isEmpty {
            query.restrict(toEntity: entity.name)
        }
        if !ordered { query.orderBy = store.layout.qualifiedKey("t0") }
        if let bound = firstKeyUpTo, let first = terms.first, let descriptor = request.sortDescriptors.first {
            query.restrict(term: first.sql, upTo: bound, ascending: descriptor.ascending)
        }
        var columns = store.layout.qualifiedKey("t0") + ", " + store.layout.entityExpression(table: query.table, alias: "t0")
        for t in terms { columns += ", " + t.sql }
        let statement = try connection.cachedStatement(query.selectSQL(columns: columns, limit: limit))
        try statement.bind(query.bindings)
        var resolver = RowEntityResolver(root: try self.entity(entity.rootName), store: store)
        while try statement.step() {
            let pk = statement.int64(0)
            guard let (_, scope) = resolver.resolve(statement) else { continue }
            let id = ObjectID(scope: scope, key: .permanent(pk))
            func key(_ i: Int) -> Value {
                terms[i].type.map { statement.value(at: i + 2, as: $0) } ?? statement.value(at: i + 2)
            }
            switch terms.count {
            case 0: body(id, SortKeys())
            case 1: body(id, SortKeys(key(0)))  // the common case: no array per row
            default: body(id, SortKeys(terms.indices.map(key)))
            }
        }
    }

    /// The first sort key's distinct values in the request's order, each with its number of
    /// rows: the sections of a list grouped by it (a binary-ordered key). One scan counting
    /// in a hash table — no sort of the rows — then the few distinct values are ordered by
    /// `ValueOrdering` (binary), the order the results index keeps and SQL's ORDER BY gives.
    func countsByFirstSortKey(_ request: FetchRequest) throws -> SectionCounts {
        let entity = try self.entity(request.entityName)
        let (compiledQuery, terms) = try QueryCompiler.compileWithSortTerms(
            entity: entity, layout: store.layout, predicate: request.predicate,
            sortDescriptors: request.sortDescriptors, variables: request.variables)
        guard let first = terms.first, let descriptor = request.sortDescriptors.first else { return SectionCounts(counts: [], keyIsText: false) }
        var query = compiledQuery
        if !request.includesSubentities, !entity.subentityNames.isEmpty {
            query.restrict(toEntity: entity.name)
        }
        let q = store.layout.dialect
        let statement = try connection.prepare(
            "SELECT \(first.sql) FROM \(q.quote(query.table)) AS t0 \(query.joins) WHERE (\(query.whereClause))")
        try statement.bind(query.bindings)
        var counts: [BinaryKey: Int] = [:]
        // Text read as itself is counted from its bytes (a String per distinct text, not per row).
        var texts = TextCounts()
        let textIsItself = first.type == nil || first.type == .string
        while try statement.step() {
            if textIsItself, statement.withTextIfText(0, { texts.add($0) }) { continue }
            counts[BinaryKey(first.type.map { statement.value(at: 0, as: $0) } ?? statement.value(at: 0)), default: 0] += 1
        }
        for (text, n) in texts.counts { counts[BinaryKey(.string(text)), default: 0] += n }
        let sorted = counts.sorted { a, b in
            let c = ValueOrdering.compare(a.key.value, b.key.value, comparison: .binary)
            return descriptor.ascending ? c < 0 : c > 0
        }.map { ($0.key.value, $0.value) }
        return SectionCounts(counts: sorted, keyIsText: first.type == .string)
    }

    /// Loads the values of faults among `objects` in one query per table.
    func loadFaults(_ objects: [ManagedObject]) throws {
        let faults = objects.filter { $0.isFault && !$0.isInserted }
        for (_, group) in Dictionary(grouping: faults, by: { $0.entity.rootName }) {
            try RowLoader(context: self).load(group)
        }
    }
}

/// The sections of a grouped list (`countsByFirstSortKey`): each first-sort-key value in
/// the list's order with its number of rows.
struct SectionCounts {
    let counts: [(value: Value, count: Int)]
    /// The key is a text attribute: SQL compares its values as the list orders them.
    let keyIsText: Bool

    var total: Int { counts.reduce(0) { $0 + $1.count } }

    /// The key of the section holding the `n`th row (the last the first page can reach),
    /// when SQL can narrow a query to it (text keys); nil when there are fewer rows.
    func bound(coveringFirst n: Int) -> Value? {
        guard keyIsText, n > 0 else { return nil }
        var seen = 0
        for (value, count) in counts {
            seen += count
            if seen >= n { return value.isNull || value.stringValue != nil ? value : nil }
        }
        return nil
    }
}

/// A value compared as SQLite's BINARY collation compares it (`ValueOrdering`): texts by
/// their UTF-8 bytes (not by Swift's canonical equivalence), numbers by value.
struct BinaryKey: Hashable {
    let value: Value
    init(_ value: Value) { self.value = value }

    static func == (a: BinaryKey, b: BinaryKey) -> Bool {
        ValueOrdering.compare(a.value, b.value, comparison: .binary) == 0
    }

    func hash(into hasher: inout Hasher) {
        let rank = ValueOrdering.rank(value)
        hasher.combine(rank)
        switch rank {
        case 1:
            switch ValueOrdering.number(value) {
            case .int(let i)?: hasher.combine(Double(i))   // equal to a real only if that real is Double(i)
            case .real(let d)?: hasher.combine(d)
            case nil: break
            }
        case 2:
            if var text = ValueOrdering.text(value) { text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) } }
        default: break
        }
    }
}
