import Foundation

extension ManagedObjectContext {
    /// Fetches objects. The result reflects this context's unsaved inserts,
    /// changes and deletes (evaluated in memory with the same predicate and sort).
    public func fetch(_ request: FetchRequest) throws(StoreError) -> [ManagedObject] {
        try StoreError.nesting { try fetchObjects(request) }
    }

    private func fetchObjects(_ request: FetchRequest) throws -> [ManagedObject] {
        let entity = try self.entity(request.entityName)
        let pending = request.includesPendingChanges ? pendingObjects(of: entity, request: request) : []
        let pagingInSQL = pending.isEmpty
        var results: [ManagedObject] = []
        try stepObjects(request, entity: entity, pagingInSQL: pagingInSQL) { results.append($0); return false }
        if !pending.isEmpty {
            results = try applyPendingChanges(results, pending: pending, entity: entity, request: request)
        }
        if request.fetchBatchSize > 0 && request.resultType == .objects {
            let batch = FaultBatch(objects: results, size: request.fetchBatchSize)
            for o in results where o.isFault { o.batch = batch }
        }
        return results
    }

    /// Runs a fetch's SQL and hands each row's object to `each`, as it is read.
    /// `each` returns true after it forgot the registered objects (`reset()`).
    func stepObjects(_ request: FetchRequest, entity: Entity, pagingInSQL: Bool,
                             _ each: (ManagedObject) throws -> Bool) throws {
        let compiled = try QueryCompiler.compile(entity: entity, layout: store.layout, predicate: request.predicate,
                                                 sortDescriptors: request.sortDescriptors, variables: request.variables)
        let root = try self.entity(entity.rootName)
        let selection = self.selection(for: root)
        let idsOnly = request.resultType == .objectIDs || request.fetchBatchSize > 0
        let (compiledQuery, bindings) = restricted(compiled, to: entity, includesSubentities: request.includesSubentities)
        // IDs only: key and entity (the version is not read; a computed one would cost a digest per row).
        let idColumns = store.layout.qualifiedKey("t0") + ", " + store.layout.entityExpression(table: compiledQuery.table, alias: "t0")
        let sql = compiledQuery.selectSQL(columns: idsOnly ? idColumns : selection.selectList,
                                          limit: pagingInSQL ? request.fetchLimit : nil,
                                          offset: pagingInSQL && request.fetchOffset > 0 ? request.fetchOffset : nil)
        let statement = try connection.cachedStatement(sql)
        try statement.bind(bindings)
        let loader = RowLoader(context: self)
        var rows = RowBlockWriter()
        // SQLite rows are kept compact; a server's arrive as values already.
        var compact = statement.readsColumnsInPlace ? CompactRowWriter() : nil
        var resolver = RowEntityResolver(root: root, store: store)
        // Every row is in the root's table, so one registry table serves the whole fetch.
        var registered = registry.primaryKeyTable(for: store.idScope(for: root))
        // The row's entity, its ID scope and plan: looked up again only when the
        // entity column changes (never for an entity without sub-entities).
        var current: (entity: Entity, scope: ObjectIDScope, plan: RowLoader.Plan)?
        let hierarchy = !root.subentityNames.isEmpty
        while try statement.step() {
            let pk = statement.int64(0)
            if current == nil || hierarchy {
                guard let (rowEntity, scope) = resolver.resolve(statement) else { continue }
                if current?.entity !== rowEntity {
                    guard let plan = selection.plans[rowEntity.name] else { continue }
                    current = (rowEntity, scope, plan)
                }
            }
            let (rowEntity, scope, plan) = current!
            func fill(_ o: ManagedObject) {
                if compact != nil {
                    loader.fill(o, from: statement, plan: plan, selection: selection, compact: &compact!, rows: &rows)
                } else {
                    loader.fill(o, from: statement, plan: plan, selection: selection, rows: &rows)
                }
            }
            // Always looked up, even in an empty context: filling a row can register
            // faults for its to-one destinations, which later rows may be.
            if let existing = registered.value(for: pk) {
                if existing.isFault && !idsOnly { fill(existing) }
                if try each(existing) { registered = registry.primaryKeyTable(for: store.idScope(for: root)) }
            } else {
                let o = ManagedObject(entity: rowEntity, objectID: ObjectID(scope: scope, key: .permanent(pk)), context: self, isFault: idsOnly)
                registered.insert(o, for: pk)  // before filling: a row may refer to itself
                if !idsOnly { fill(o) }
                if try each(o) { registered = registry.primaryKeyTable(for: store.idScope(for: root)) }
            }
        }
    }

    /// Object IDs only: no values are loaded.
    public func fetchObjectIDs(_ request: FetchRequest) throws(StoreError) -> [ObjectID] {
        var r = request
        r.resultType = .objectIDs
        return try fetch(r).map(\.objectID)
    }

    /// The number of objects a fetch would return.
    public func count(_ request: FetchRequest) throws(StoreError) -> Int {
        try StoreError.nesting { try countRows(request) }
    }

    private func countRows(_ request: FetchRequest) throws -> Int {
        let entity = try self.entity(request.entityName)
        if request.includesPendingChanges && pendingObjects.contains(where: { $0.entity.rootName == entity.rootName }) {
            return try fetchObjectIDs(request).count
        }
        let compiled = try QueryCompiler.compile(entity: entity, layout: store.layout, predicate: request.predicate, sortDescriptors: [], variables: request.variables)
        let (query, bindings) = restricted(compiled, to: entity, includesSubentities: request.includesSubentities)
        guard request.fetchLimit != nil || request.fetchOffset > 0 else {
            return Int(try connection.scalarInt(query.countSQL(), bindings) ?? 0)
        }
        // With a limit, SQLite stops counting there ("are there more than N?" stays cheap).
        let inner = query.selectSQL(columns: "1", limit: request.fetchLimit, offset: request.fetchOffset > 0 ? request.fetchOffset : nil)
        // The alias: PostgreSQL (before 16) requires one for a subquery in FROM.
        return Int(try connection.scalarInt("SELECT count(*) FROM (\(inner)) AS limited", bindings) ?? 0)
    }

    /// Fetch by entity name with an optional predicate and sort: the seeds' convenience.
    public func fetch(_ entityName: String, where predicate: QueryPredicate? = nil, sortedBy sort: [QuerySortDescriptor] = [], limit: Int? = nil) throws(StoreError) -> [ManagedObject] {
        try fetch(FetchRequest(entityName: entityName, predicate: predicate, sortDescriptors: sort, fetchLimit: limit))
    }

    /// Adds the entity filter the compiler leaves out: rows of exactly this entity when
    /// sub-entities are excluded. Parameters continue the compiler's numbering.
    private func restricted(_ query: CompiledQuery, to entity: Entity, includesSubentities: Bool) -> (CompiledQuery, [Value]) {
        guard !includesSubentities, !entity.subentityNames.isEmpty else { return (query, query.bindings) }
        var q = query
        q.restrict(toEntity: entity.name)
        return (q, q.bindings)
    }

    /// Unsaved objects that may change this fetch's result (same table).
    private func pendingObjects(of entity: Entity, request: FetchRequest) -> [ManagedObject] {
        pendingObjects.filter { $0.entity.rootName == entity.rootName }
    }

    /// Merges the context's unsaved state into SQL results: drops deleted objects,
    /// re-evaluates changed ones, adds matching inserts, re-sorts, then pages.
    private func applyPendingChanges(_ fetched: [ManagedObject], pending: [ManagedObject], entity: Entity, request: FetchRequest) throws -> [ManagedObject] {
        let allowed = Set(request.includesSubentities ? entity.hierarchyNames : [entity.name])
        var seen = Set<ObjectIdentifier>()
        var result: [ManagedObject] = []
        var reorder = false
        for o in fetched {
            seen.insert(ObjectIdentifier(o))
            if o.isDeleted { reorder = true; continue }
            if changedObjects[ObjectIdentifier(o)] != nil, o.hasChangedValues {
                reorder = true
                if let p = request.predicate, try !p.evaluate(o, variables: request.variables) { continue }
            }
            result.append(o)
        }
        for o in pending where !seen.contains(ObjectIdentifier(o)) && !o.isDeleted && allowed.contains(o.entity.name) {
            if !o.isInserted && !o.hasChangedValues { continue }
            if o.isFault { try fulfillFault(o) }
            if let p = request.predicate, try !p.evaluate(o, variables: request.variables) { continue }
            result.append(o)
            reorder = true
        }
        if reorder {
            try sortInMemory(&result, by: request.sortDescriptors)
        }
        let start = min(result.count, request.fetchOffset)
        let end = request.fetchLimit.map { min(result.count, start + $0) } ?? result.count
        return Array(result[start..<end])
    }

    /// Sorts with the in-memory comparator that matches SQL's ORDER BY.
    func sortInMemory(_ result: inout [ManagedObject], by descriptors: [QuerySortDescriptor]) throws {
        var sortError: Error?
        result.sort { a, b in
            do { return try QuerySortDescriptor.compare(a, b, descriptors: descriptors) == .orderedAscending } catch {
                sortError = error
                return false
            }
        }
        if let sortError { throw sortError }
    }
}

extension ManagedObject: KeyValueSource {
    public var sourceEntity: Entity { entity }
    public var sourceObjectID: ObjectID { objectID }
    public func attributeValue(forKey key: String) throws -> Value { try value(forKey: key) }
    public func toOneValue(forKey key: String) throws -> ManagedObject? { try toOne(key) }
    public func toManyValue(forKey key: String) throws -> [ManagedObject] { try toMany(key) }
}
