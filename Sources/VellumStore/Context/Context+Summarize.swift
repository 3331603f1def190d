import Foundation

extension ManagedObjectContext {
    /// Summarizes `attribute` over the rows `request` matches (its sort, limit and
    /// offset are ignored). Unsaved changes in this context are not included.
    public func summarize(_ request: FetchRequest, attribute: String, limit: Int = 50) throws(StoreError) -> ColumnSummary {
        try summarize(request, attribute: attribute, limit: limit, numbersHeldAtMost: SortedNumbers.defaultLimit)
    }

    /// `summarize`, holding at most `numbersHeldAtMost` values in memory (beyond that,
    /// or at 0 — for tests — the figures come from SQL passes).
    func summarize(_ request: FetchRequest, attribute: String, limit: Int, numbersHeldAtMost: Int) throws(StoreError) -> ColumnSummary {
        try StoreError.nesting { try summary(request, attribute: attribute, limit: limit, numbersHeldAtMost: numbersHeldAtMost) }
    }

    private func summary(_ request: FetchRequest, attribute: String, limit: Int, numbersHeldAtMost: Int) throws -> ColumnSummary {
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
        let from = "FROM \(q.quote(query.table)) AS t0 \(query.joins) WHERE (\(query.whereClause))"
        let c = "t0.\(q.quote(column))"
        let numeric = type.isNumeric || type == .date
        // Dates as Unix seconds whatever form the layout stores them in (another program's
        // ISO text or milliseconds, Core Data's seconds since 2001).
        let stored = type == .date ? store.layout.comparableExpression(table: query.table, column: column, alias: "t0") : c
        let measure = q.comparable(stored, type: type)
        if let kind = Self.scanKind(type, storedAsNumber: q.number(measure, type: type) == c),
           numbersHeldAtMost > 0,
           let sorted = try scanNumbers("SELECT \(c) \(from)", bindings: query.bindings, kind: kind, limit: numbersHeldAtMost) {
            return Self.summary(of: sorted, attribute: attribute, type: type, limit: limit)
        }
        let sum = type.isNumeric ? ", \(q.total(measure))" : ""
        // No count(DISTINCT): SQLite fills a temporary b-tree for it (at 1M distinct
        // values most of the summary's time); the distinct values are counted from the
        // grouped pass below, which sorts once.
        let stats = try connection.rows(
            "SELECT count(*), count(\(c))\(numeric ? ", min(\(measure)), max(\(measure)), \(q.average(measure, type: type))\(sum)" : "") \(from)",
            query.bindings).first ?? []
        let total = Int(stats.first?.integerValue ?? 0)
        var summary = ColumnSummary(attribute: attribute, count: total, nulls: total - Int(stats[safe: 1]?.integerValue ?? 0),
                                    distinct: 0, min: nil, max: nil, mean: nil, top: [])
        if numeric {
            summary.min = stats[safe: 2].map { Self.decode($0, as: type) }.flatMap { $0.isNull ? nil : $0 }
            summary.max = stats[safe: 3].map { Self.decode($0, as: type) }.flatMap { $0.isNull ? nil : $0 }
            summary.mean = stats[safe: 4]?.doubleValue
            if type.isNumeric { summary.sum = stats[safe: 5]?.doubleValue }
        }
        // One pass over the values grouped and in order (NULL first, as SQLite orders them,
        // on every engine): the distinct count, the most frequent values (ties by value:
        // the earlier group wins) and, when the stored value is the number itself, the
        // quartiles by rank from the running count.
        let ranked = numeric && summary.valueCount > 0 && q.number(measure, type: type) == c
        let wanted = ranked ? Self.quartileRanks(summary.valueCount) : []
        var rankValues: [Int: Double] = [:]
        var top = TopBuckets(limit: limit)
        let statement = try connection.prepare("SELECT \(c), count(*) \(from) GROUP BY \(c) ORDER BY \(q.orderTerm(c, caseInsensitive: nil, ascending: true))")
        try statement.bind(query.bindings)
        var seen = 0
        var ranks = Set(wanted.flatMap { [$0.0, $0.1] }).sorted()[...]
        while try statement.step() {
            let n = Int(statement.int64(1))
            let isNull = statement.isNull(0)
            if !isNull { summary.distinct += 1 }
            if top.admits(n) { top.add(statement.value(at: 0, as: type), count: n) }
            guard ranked, !isNull else { continue }
            while let r = ranks.first, r <= seen + n {
                rankValues[r] = statement.double(0)
                ranks.removeFirst()
            }
            seen += n
        }
        summary.top = top.buckets
        if numeric, summary.valueCount > 0 {
            try addDistribution(to: &summary, type: type, number: q.number(measure, type: type),
                                nonNull: "\(from) AND \(c) IS NOT NULL", bindings: query.bindings,
                                byRank: ranked ? rankValues : nil)
        }
        return summary
    }

    /// The 1-based ranks around each quartile of `n` values and the fraction between
    /// them (numpy's default interpolation).
    private static func quartileRanks(_ n: Int) -> [(Int, Int, Double)] {
        [0.25, 0.5, 0.75].map { p -> (Int, Int, Double) in
            let h = Double(n - 1) * p
            return (Int(h.rounded(.down)) + 1, Int(h.rounded(.up)) + 1, h - h.rounded(.down))
        }
    }

    /// Quartiles, the standard deviation and (for continuous values) the histogram,
    /// from the non-null values: one sorted pass for the quartiles (the ranks around each
    /// quarter), one pass filing each value into its bin with its squared deviation.
    private func addDistribution(to summary: inout ColumnSummary, type: AttributeType, number m: String,
                                 nonNull from: String, bindings: [Value], byRank known: [Int: Double]?) throws {
        let n = summary.valueCount
        let wanted = Self.quartileRanks(n)
        var byRank = known ?? [:]
        if known == nil {
            // The number is computed from the stored value (decimals, dates in another
            // form): ranked by a window over it.
            let ranks = Set(wanted.flatMap { [$0.0, $0.1] }).sorted().map(String.init).joined(separator: ", ")
            for row in try connection.rows(
                "SELECT r, m FROM (SELECT m, row_number() OVER (ORDER BY m) AS r FROM (SELECT \(m) AS m \(from)) AS v) AS w WHERE r IN (\(ranks))",
                bindings) {
                if let r = row[safe: 0]?.integerValue, let v = row[safe: 1]?.doubleValue { byRank[Int(r)] = v }
            }
        }
        let quartiles = wanted.map { lo, hi, f -> Value? in
            guard let a = byRank[lo], let b = byRank[hi] else { return nil }
            let q = a + (b - a) * f
            return type == .date ? .date(Date(timeIntervalSince1970: q)) : .double(q)
        }
        (summary.lowerQuartile, summary.median, summary.upperQuartile) = (quartiles[0], quartiles[1], quartiles[2])

        // An infinite value (SQLite keeps 1e999 as infinity) has no deviation or bins.
        guard let mean = summary.mean, mean.isFinite else { return }
        let deviation = "(m - \(HistogramBins.literal(mean))) * (m - \(HistogramBins.literal(mean)))"
        let q = store.layout.dialect
        var squares = 0.0
        if let bins = Self.histogramBins(summary, type: type) {
            var counts = [Int](repeating: 0, count: bins.count)
            for row in try connection.rows(
                "SELECT b, count(*), \(q.total("d")) FROM (SELECT \(bins.binExpression("m")) AS b, \(deviation) AS d FROM (SELECT \(m) AS m \(from)) AS v) AS w GROUP BY b",
                bindings) {
                guard let b = row[safe: 0]?.integerValue, counts.indices.contains(Int(b)) else { continue }
                counts[Int(b)] = Int(row[safe: 1]?.integerValue ?? 0)
                squares += row[safe: 2]?.doubleValue ?? 0
            }
            Self.fill(&summary, bins: bins, counts: counts, type: type)
        } else {
            squares = try connection.rows("SELECT \(q.total(deviation)) FROM (SELECT \(m) AS m \(from)) AS v", bindings)
                .first?.first?.doubleValue ?? 0
        }
        summary.standardDeviation = n > 1 ? (squares / Double(n - 1)).squareRoot() : nil
    }

    /// The histogram of `counts`, one per bin.
    private static func fill(_ summary: inout ColumnSummary, bins: HistogramBins, counts: [Int], type: AttributeType) {
        func bound(_ x: Double) -> Value { type == .date ? .date(Date(timeIntervalSince1970: x)) : .double(x) }
        summary.histogram = counts.indices.map { i in
            ColumnSummary.Bin(lower: bound(bins.boundaries[i]), upper: bound(bins.boundaries[i + 1]),
                              includesUpper: i == counts.count - 1, count: counts[i])
        }
        summary.binUnit = bins.unit
    }

    // MARK: One scan, sorted in memory

    /// How a column of `type` is read by `scanNumbers`, or nil when it is summarized in
    /// SQL: integers (and booleans) exactly, floating point as doubles, dates when the
    /// stored value is already seconds since 1970 (`storedAsNumber`). Decimals and text
    /// stay in SQL.
    static func scanKind(_ type: AttributeType, storedAsNumber: Bool) -> SortedNumbers.Kind? {
        switch type {
        case .integer16, .integer32, .integer64, .boolean: return .integers
        case .double, .float: return .doubles
        case .date: return storedAsNumber ? .doubles : nil
        default: return nil
        }
    }

    /// The column's values read by `sql` (one column, unsorted) and sorted, or nil when
    /// one is not a number of `kind` or there are too many to hold (SQL then summarizes).
    private func scanNumbers(_ sql: String, bindings: [Value], kind: SortedNumbers.Kind, limit: Int) throws -> SortedNumbers? {
        let statement = try connection.prepare(sql)
        try statement.bind(bindings)
        return try SortedNumbers.read(statement, kind: kind, limit: limit)
    }

    /// The summary the SQL passes would give, from the sorted values: the same figures,
    /// ties and bins (sums and deviations compensated, in ascending order).
    static func summary(of sorted: SortedNumbers, attribute: String, type: AttributeType, limit: Int) -> ColumnSummary {
        let n = sorted.count
        var summary = ColumnSummary(attribute: attribute, count: n + sorted.nulls, nulls: sorted.nulls,
                                    distinct: 0, min: nil, max: nil, mean: nil, top: [])
        func shown(_ rank: Int) -> Value {
            switch type {
            case .boolean: return .bool(sorted.number(at: rank) != 0)
            case .date: return .date(Date(timeIntervalSince1970: sorted.number(at: rank)))
            case .double, .float: return .double(sorted.number(at: rank))
            default: return sorted.value(at: rank)
            }
        }
        // NULL first, then ascending: the order SQL's grouped pass gives the groups.
        var top = TopBuckets(limit: limit)
        if sorted.nulls > 0, top.admits(sorted.nulls) { top.add(.null, count: sorted.nulls) }
        sorted.forEachRun { rank, count in
            summary.distinct += 1
            if top.admits(count) { top.add(shown(rank), count: count) }
        }
        summary.top = top.buckets
        guard type != .boolean, n > 0 else { return summary }

        summary.min = shown(0)
        summary.max = shown(n - 1)
        let sum = sorted.sum
        if type.isNumeric { summary.sum = sum }
        let mean = sum / Double(n)
        summary.mean = mean
        let quartiles = quartileRanks(n).map { lo, hi, f -> Value in
            let a = sorted.number(at: lo - 1), b = sorted.number(at: hi - 1)
            let q = a + (b - a) * f
            return type == .date ? .date(Date(timeIntervalSince1970: q)) : .double(q)
        }
        (summary.lowerQuartile, summary.median, summary.upperQuartile) = (quartiles[0], quartiles[1], quartiles[2])
        guard mean.isFinite else { return summary }
        if let bins = histogramBins(summary, type: type) {
            fill(&summary, bins: bins, counts: sorted.binCounts(bins), type: type)
        }
        summary.standardDeviation = n > 1 ? (sorted.squaredDeviations(from: mean) / Double(n - 1)).squareRoot() : nil
        return summary
    }

    /// Bins for continuous values: floating point and decimals, integers with more than
    /// 20 distinct values (fewer are the frequency table already), and dates.
    private static func histogramBins(_ summary: ColumnSummary, type: AttributeType) -> HistogramBins? {
        switch (summary.min, summary.max) {
        case (.date(let a)?, .date(let b)?) where type == .date:
            return .dates(min: a, max: b)
        case (let a?, let b?) where type.isNumeric && (!type.isInteger || summary.distinct > 20):
            guard let lo = a.doubleValue, let hi = b.doubleValue else { return nil }
            return .numeric(min: lo, max: hi, integral: type.isInteger)
        default:
            return nil
        }
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

/// The `limit` most frequent values of a grouped pass in value order: most frequent
/// first, ties in the order the groups came (by value). A heap whose root is the
/// weakest kept bucket (fewest rows, latest), so a group is decoded only if it gets in.
struct TopBuckets {
    private let limit: Int
    private var heap: [(bucket: ColumnSummary.Bucket, order: Int)] = []
    private var arrivals = 0

    init(limit: Int) { self.limit = max(0, limit) }

    /// Whether a group of `count` rows, coming after every one so far, would be kept.
    func admits(_ count: Int) -> Bool { heap.count < limit || (limit > 0 && count > heap[0].bucket.count) }

    /// Adds a group `admits` let in.
    mutating func add(_ value: Value, count: Int) {
        defer { arrivals += 1 }
        let entry = (bucket: ColumnSummary.Bucket(value: value, count: count), order: arrivals)
        if heap.count < limit {
            heap.append(entry)
            var i = heap.count - 1
            while i > 0, weaker(i, than: (i - 1) / 2) { heap.swapAt(i, (i - 1) / 2); i = (i - 1) / 2 }
            return
        }
        heap[0] = entry
        var i = 0
        while true {
            let l = 2 * i + 1, r = l + 1
            var w = i
            if l < heap.count, weaker(l, than: w) { w = l }
            if r < heap.count, weaker(r, than: w) { w = r }
            if w == i { return }
            heap.swapAt(i, w)
            i = w
        }
    }

    private func weaker(_ a: Int, than b: Int) -> Bool {
        heap[a].bucket.count != heap[b].bucket.count ? heap[a].bucket.count < heap[b].bucket.count : heap[a].order > heap[b].order
    }

    /// Most frequent first, ties by arrival.
    var buckets: [ColumnSummary.Bucket] {
        heap.sorted { $0.bucket.count != $1.bucket.count ? $0.bucket.count > $1.bucket.count : $0.order < $1.order }.map(\.bucket)
    }
}
