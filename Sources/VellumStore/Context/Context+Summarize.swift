import Foundation

extension ManagedObjectContext {
    /// Summarizes `attribute` over the rows `request` matches (its sort, limit and
    /// offset are ignored). Unsaved changes in this context are not included.
    public func summarize(_ request: FetchRequest, attribute: String, limit: Int = 50) throws(StoreError) -> ColumnSummary {
        try StoreError.nesting { try summary(request, attribute: attribute, limit: limit) }
    }

    private func summary(_ request: FetchRequest, attribute: String, limit: Int) throws -> ColumnSummary {
        let entity = try self.entity(request.entityName)
        guard let index = entity.attributeIndexByName[attribute] else { throw StoreError.unknownKey(entity: entity.name, key: attribute) }
        let type = entity.attributes[index].type
        guard let mapping = store.layout.mapping(for: entity.name), let column = mapping.attributeColumns[index] else {
            throw StoreError.invalidOperation("\(entity.name).\(attribute) is transient: it has no stored values to summarize")
        }
        var query = try QueryCompiler.compile(entity: entity, layout: store.layout, predicate: request.predicate,
                                              sortDescriptors: [], variables: request.variables)
        if !request.includesSubentities, !entity.subentityNames.isEmpty {
            query.restrict(toEntity: entity.name)
        }
        let q = store.layout.dialect
        let from = "FROM \(q.quote(query.table)) AS t0 \(query.joins) WHERE \(query.whereClause)"
        let c = "t0.\(q.quote(column))"
        let numeric = type.isNumeric || type == .date
        let measure = q.comparable(c, type: type)
        let stats = try connection.rows(
            "SELECT count(*), count(\(c)), count(DISTINCT \(c))\(numeric ? ", min(\(measure)), max(\(measure)), \(q.average(measure, type: type))" : "") \(from)",
            query.bindings).first ?? []
        let total = Int(stats.first?.integerValue ?? 0)
        var summary = ColumnSummary(attribute: attribute, count: total, nulls: total - Int(stats[safe: 1]?.integerValue ?? 0),
                                    distinct: Int(stats[safe: 2]?.integerValue ?? 0), min: nil, max: nil, mean: nil, top: [])
        if numeric {
            summary.min = stats[safe: 3].map { Self.decode($0, as: type) }.flatMap { $0.isNull ? nil : $0 }
            summary.max = stats[safe: 4].map { Self.decode($0, as: type) }.flatMap { $0.isNull ? nil : $0 }
            summary.mean = stats[safe: 5]?.doubleValue
        }
        // Ties by value, NULL first (as SQLite orders them) on every engine.
        let order = "n DESC, " + q.orderTerm(c, caseInsensitive: nil, ascending: true)
        let statement = try connection.prepare("SELECT \(c), count(*) AS n \(from) GROUP BY \(c) ORDER BY \(order)\(q.limitOffset(limit: limit, offset: nil))")
        try statement.bind(query.bindings)
        while try statement.step() {
            summary.top.append(ColumnSummary.Bucket(value: statement.value(at: 0, as: type), count: Int(statement.int64(1))))
        }
        return summary
    }

    private static func decode(_ raw: Value, as type: AttributeType) -> Value {
        switch (type, raw) {
        case (.date, .double(let d)): return .date(Date(timeIntervalSince1970: d))
        case (.date, .integer(let i)): return .date(Date(timeIntervalSince1970: Double(i)))
        case (.decimal, .double(let d)): return .decimal(Decimal(d))
        case (.boolean, .integer(let i)): return .bool(i != 0)
        default: return raw
        }
    }
}

extension Array {
    subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}
