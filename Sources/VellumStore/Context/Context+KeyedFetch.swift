import Foundation

extension ManagedObjectContext {
    /// Streams (ID, sort keys) of the rows a request matches, in order, without
    /// collecting them first (a million-row index is built without a second copy),
    /// selecting only the key, the entity and the sort-key columns. Unsaved changes are
    /// NOT applied (the results controller re-evaluates them in memory). `ordered: false`
    /// leaves the rows in key order: a caller that matches them by key (the
    /// refetch-and-diff) saves sorting a million rows.
    func forEachKeyedID(_ request: FetchRequest, limit: Int? = nil, ordered: Bool = true, _ body: (ObjectID, SortKeys) -> Void) throws {
        let entity = try self.entity(request.entityName)
        let (compiledQuery, terms) = try QueryCompiler.compileWithSortTerms(
            entity: entity, layout: store.layout, predicate: request.predicate,
            sortDescriptors: request.sortDescriptors, variables: request.variables)
        var query = compiledQuery
        if !request.includesSubentities, !entity.subentityNames.isEmpty {
            query.restrict(toEntity: entity.name)
        }
        if !ordered { query.orderBy = store.layout.qualifiedKey("t0") }
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
    /// rows: the sections of a list grouped by it (a binary-ordered key), from one GROUP BY
    /// pass that sorts only the distinct values, not the rows.
    func countsByFirstSortKey(_ request: FetchRequest) throws -> [(value: Value, count: Int)] {
        let entity = try self.entity(request.entityName)
        let (compiledQuery, terms) = try QueryCompiler.compileWithSortTerms(
            entity: entity, layout: store.layout, predicate: request.predicate,
            sortDescriptors: request.sortDescriptors, variables: request.variables)
        guard let first = terms.first, let descriptor = request.sortDescriptors.first else { return [] }
        var query = compiledQuery
        if !request.includesSubentities, !entity.subentityNames.isEmpty {
            query.restrict(toEntity: entity.name)
        }
        let q = store.layout.dialect
        let sql = "SELECT \(first.sql), count(*) FROM \(q.quote(query.table)) AS t0 \(query.joins) WHERE (\(query.whereClause)) "
            + "GROUP BY \(first.sql) ORDER BY \(q.orderTerm(first.sql, caseInsensitive: nil, ascending: descriptor.ascending))"
        let statement = try connection.prepare(sql)
        try statement.bind(query.bindings)
        var counts: [(value: Value, count: Int)] = []
        while try statement.step() {
            counts.append((first.type.map { statement.value(at: 0, as: $0) } ?? statement.value(at: 0), Int(statement.int64(1))))
        }
        return counts
    }

    /// Loads the values of faults among `objects` in one query per table.
    func loadFaults(_ objects: [ManagedObject]) throws {
        let faults = objects.filter { $0.isFault && !$0.isInserted }
        for (_, group) in Dictionary(grouping: faults, by: { $0.entity.rootName }) {
            try RowLoader(context: self).load(group)
        }
    }
}
