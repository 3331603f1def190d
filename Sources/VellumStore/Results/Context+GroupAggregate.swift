import Foundation

/// What `aggregate(_:_:of:groupedBy:)` computes per group.
public enum GroupAggregateFunction: String, Sendable, CaseIterable {
    case count, sum, avg, min, max
}

extension ManagedObjectContext {
    /// `function` of `attribute` (a numeric or date attribute of the entity; none for
    /// `count`) over the rows `request` matches, per value of `keyPath`, in one SQL
    /// `GROUP BY`. The groups are named as a results controller sectioned by `keyPath`
    /// names its sections (nil for no value), so a sectioned list can show each
    /// section's figure. Nulls are left out of sum, avg, min and max (a group of
    /// nulls only has no value: `.null`). Unsaved changes in this context are not included.
    public func aggregate(_ request: FetchRequest, _ function: GroupAggregateFunction, of attribute: String?,
                          groupedBy keyPath: String) throws(StoreError) -> [String?: Value] {
        try StoreError.nesting { try groupAggregate(request, function, of: attribute, groupedBy: keyPath) }
    }

    private func groupAggregate(_ request: FetchRequest, _ function: GroupAggregateFunction, of attribute: String?,
                                groupedBy keyPath: String) throws -> [String?: Value] {
        let entity = try self.entity(request.entityName)
        let (compiled, terms) = try QueryCompiler.compileWithSortTerms(
            entity: entity, layout: store.layout, predicate: request.predicate,
            sortDescriptors: [QuerySortDescriptor(keyPath)], variables: request.variables)
        var query = compiled
        if !request.includesSubentities, !entity.subentityNames.isEmpty { query.restrict(toEntity: entity.name) }
        let q = store.layout.dialect
        var measured = "count(*)"
        var type: AttributeType = .integer64
        if function != .count || attribute != nil {
            guard let attribute else { throw StoreError.invalidOperation("\(function.rawValue) needs an attribute: \(function.rawValue)(price)") }
            guard let index = entity.attributeIndexByName[attribute] else { throw StoreError.unknownKey(entity: entity.name, key: attribute) }
            let a = entity.attributes[index]
            guard let column = store.layout.mapping(for: entity.name)?.attributeColumns[index] else {
                throw StoreError.invalidOperation("\(entity.name).\(attribute) is transient: it has no stored values")
            }
            let stored = a.type == .date ? store.layout.comparableExpression(table: query.table, column: column, alias: "t0") : "t0.\(q.quote(column))"
            let value = q.comparable(stored, type: a.type)
            switch function {
            case .count: measured = "count(\(stored))"
            case .sum:
                guard a.type.isNumeric else { throw StoreError.invalidOperation("sum needs a number: \(entity.name).\(attribute) is \(a.type.rawValue)") }
                // NULL for a group of nulls only, as SQL's SUM (TOTAL would say 0).
                measured = "CASE WHEN count(\(stored)) = 0 THEN NULL ELSE \(q.total(value)) END"
                type = .double
            case .avg:
                guard a.type.isNumeric || a.type == .date else { throw StoreError.invalidOperation("avg needs a number or date: \(entity.name).\(attribute) is \(a.type.rawValue)") }
                measured = q.average(value, type: a.type)
                type = .double
            case .min, .max:
                guard a.type.isNumeric || a.type == .date else { throw StoreError.invalidOperation("\(function.rawValue) needs a number or date: \(entity.name).\(attribute) is \(a.type.rawValue)") }
                measured = "\(function.rawValue)(\(value))"
                type = a.type == .date ? .date : .double
            }
        }
        let key = terms[0]
        let sql = "SELECT \(key.sql), \(measured) FROM \(q.quote(query.table)) AS t0 \(query.joins) WHERE (\(query.whereClause)) GROUP BY \(key.sql)"
        let statement = try connection.prepare(sql)
        try statement.bind(query.bindings)
        var groups: [String?: Value] = [:]
        while try statement.step() {
            let group = key.type.map { statement.value(at: 0, as: $0) } ?? statement.value(at: 0)
            var figure = statement.value(at: 1)
            if type == .date, let seconds = figure.doubleValue { figure = .date(Date(timeIntervalSince1970: seconds)) }
            groups[ResultsIndex.sectionName(group)] = figure
        }
        return groups
    }
}
