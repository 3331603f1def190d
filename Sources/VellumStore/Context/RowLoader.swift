import Foundation

/// Reads rows into managed objects: the one place that turns columns into values.
/// Used by fetches and by fault firing.
struct RowLoader {
    unowned let context: ManagedObjectContext

    /// Which select-list column feeds each attribute and foreign key of one entity.
    /// A class: fetch loops hold one per row without copying its arrays.
    final class Plan {
        let entity: Entity
        /// (relationship index, select column), to-one foreign keys only.
        let foreignKeys: [(Int, Int)]
        /// Per attribute index: its select column (-1 for transient attributes) and type.
        let sources: [(column: Int, type: AttributeType)]

        /// `attributes`: (attribute index, select column, type) of the stored attributes.
        init(entity: Entity, attributes: [(Int, Int, AttributeType)], foreignKeys: [(Int, Int)]) {
            self.entity = entity
            self.foreignKeys = foreignKeys
            var sources = entity.attributes.map { (column: -1, type: $0.type) }
            for (i, column, type) in attributes { sources[i] = (column, type) }
            self.sources = sources
        }
    }

    /// The select list for a root's whole hierarchy (so rows of any sub-entity load),
    /// after the layout's three system columns (key, entity, version).
    final class Selection {
        let columns: [String]
        /// The root's table.
        let table: String
        var plans: [String: Plan] = [:]
        let layout: any StoreLayout
        init(entity: Entity, layout: any StoreLayout) {
            self.layout = layout
            var columns: [String] = []
            var positions: [String: Int] = [:]
            let root = layout.model.entity(named: entity.rootName)!
            for name in entity.hierarchyNames {
                let m = layout.mapping(for: name)!
                var attributes: [(Int, Int, AttributeType)] = []
                var fks: [(Int, Int)] = []
                for (i, column) in m.attributeColumns.enumerated() {
                    guard let column else { continue }
                    if positions[column] == nil { positions[column] = 3 + columns.count; columns.append(column) }
                    attributes.append((i, positions[column]!, m.entity.attributes[i].type))
                }
                for (i, storage) in m.relationshipStorage.enumerated() {
                    guard case .foreignKey(let column) = storage else { continue }
                    if positions[column] == nil { positions[column] = 3 + columns.count; columns.append(column) }
                    fks.append((i, positions[column]!))
                }
                plans[name] = Plan(entity: m.entity, attributes: attributes, foreignKeys: fks)
            }
            let table = layout.table(of: root.name)!
            self.table = table
            self.columns = columns
            var reads = columns.map { layout.readExpression(table: table, column: $0, alias: "t0") }
            if let digested = layout.versionColumns(table: table) {
                // The version is a digest of the row's columns: taken from the select list's
                // own reads of them (a plain read, else one added), not computed again by SQLite.
                var sources: [Int] = []
                for column in digested {
                    let plain = "t0." + layout.dialect.quote(column)
                    if let p = positions[column], reads[p - 3] == plain {
                        sources.append(p)
                    } else {
                        sources.append(3 + reads.count)
                        reads.append(plain)
                    }
                }
                versionSources = sources
                rowWidth = 3 + reads.count
                rowValues = UnsafeMutablePointer<OpaquePointer?>.allocate(capacity: 3 + reads.count)
                rowValues!.initialize(repeating: nil, count: 3 + reads.count)
                let system = [layout.qualifiedKey("t0"), layout.entityExpression(table: table, alias: "t0"), "0"]
                selectList = (system + reads).joined(separator: ", ")
            } else {
                versionSources = nil
                rowWidth = 0
                rowValues = nil
                selectList = ([layout.systemColumns(table: table, alias: "t0")] + reads).joined(separator: ", ")
            }
        }

        /// The select list itself, built once: every fault fired and every fetch uses it
        /// (a layout's columns and read expressions do not change once it is made).
        let selectList: String
        /// The select columns the row's version is digested from (`StoreLayout.versionColumns`),
        /// or nil when it is the third column.
        let versionSources: [Int]?
        /// Where the version is digested: the current row's column values
        /// (`Statement.columnValue`), read once for the digest and the decoding, and their
        /// count (the whole select list). A selection is used on one queue at a time.
        private let rowValues: UnsafeMutablePointer<OpaquePointer?>?
        private let rowWidth: Int

        deinit { rowValues?.deallocate() }

        /// The current row's version, and the values to decode the row from (nil: read
        /// them from the statement), valid until the next `read` of this selection. Read
        /// a row through it before decoding anything of it.
        func read(_ s: Statement) -> (version: Int64, values: UnsafePointer<OpaquePointer?>?) {
            guard let versionSources, let rowValues else { return (s.int64(2), nil) }
            for c in 3..<rowWidth { rowValues[c] = s.columnValue(c) }
            return (s.rowVersion(rowValues, columns: versionSources), UnsafePointer(rowValues))
        }
    }

    /// Loads the rows of `objects` (all faults of one root table) with one query per 500 objects.
    func load(_ objects: [ManagedObject]) throws {
        guard let first = objects.first else { return }
        let root = context.store.model.entity(named: first.entity.rootName)!
        let selection = context.selection(for: root)
        let byKey = Dictionary(objects.compactMap { o in o.objectID.primaryKey.map { ($0, o) } }, uniquingKeysWith: { a, _ in a })
        try Self.readRows(keys: Array(byKey.keys), root: root, selection: selection, connection: context.connection, objects: byKey) { pk, statement in
            if let o = byKey[pk] { fill(o, from: statement, selection: selection) }
        }
    }

    /// Reads the rows of one root table with the given primary keys, 500 per query,
    /// calling `body` with each row's key and the statement positioned on it. `objects`:
    /// the objects of those keys whose values are known, where the layout digests the key
    /// columns into the key: each is looked up by those values (`KeyColumnMatch`, the
    /// primary-key index), the rest by the key.
    static func readRows(keys: [Int64], root: Entity, selection: Selection, connection: Connection,
                         objects: [Int64: ManagedObject] = [:], _ body: (Int64, Statement) throws -> Void) throws {
        var keys = keys
        if !objects.isEmpty, let byColumns = KeyColumnMatch(entity: root, layout: selection.layout) {
            keys = try readRows(keys: keys, byColumns: byColumns, objects: objects, selection: selection, connection: connection, body)
        }
        if !keys.isEmpty, let map = selection.layout.digestKeyMap(table: selection.layout.table(of: root.name)!) {
            keys = try readRows(keys: keys, map: map, root: root, selection: selection, connection: connection, body)
        }
        for chunkStart in stride(from: 0, to: keys.count, by: 500) {
            let chunk = keys[chunkStart..<min(keys.count, chunkStart + 500)]
            let layout = selection.layout
            let sql = "SELECT \(selection.selectList) FROM \(layout.dialect.quote(layout.table(of: root.name)!)) AS t0 WHERE \(layout.qualifiedKey("t0")) IN (\(layout.dialect.placeholders(chunk.count)))"
            let statement = try chunk.count == 500 ? connection.cachedStatement(sql) : connection.prepare(sql)
            try statement.bind(chunk.map { .integer($0) })
            while try statement.step() { try body(statement.int64(0), statement) }
        }
    }

    /// `readRows` of the keys whose objects know their key columns' values, one indexed
    /// lookup each; returns the keys left to find by the key alone.
    private static func readRows(keys: [Int64], byColumns: KeyColumnMatch, objects: [Int64: ManagedObject], selection: Selection,
                                 connection: Connection, _ body: (Int64, Statement) throws -> Void) throws -> [Int64] {
        let layout = selection.layout
        let sql = "SELECT \(selection.selectList) FROM \(layout.dialect.quote(byColumns.table)) AS t0 WHERE "
            + "\(byColumns.condition(alias: "t0", layout.dialect)) AND \(layout.qualifiedKey("t0")) = ?"
        var rest: [Int64] = []
        for key in keys {
            guard let o = objects[key], let values = byColumns.values(of: o, layout: layout) else { rest.append(key); continue }
            let statement = try connection.cachedStatement(sql)
            statement.rewind()
            try statement.bind(values + [.integer(key)])
            var found = false
            while try statement.step() {
                found = true
                try body(statement.int64(0), statement)
            }
            if !found { rest.append(key) }
        }
        return rest
    }

    /// `readRows` of keys known by nothing but themselves in a table whose keys digest its key
    /// columns: their values come from the connection's `DigestKeyMap`, and each row is found
    /// by them through the primary-key index. Returns the keys left to find by the digest
    /// (rows whose key is NULL); a key the map does not know is no row's.
    private static func readRows(keys: [Int64], map: DigestKeyMap, root: Entity, selection: Selection,
                                 connection: Connection, _ body: (Int64, Statement) throws -> Void) throws -> [Int64] {
        let layout = selection.layout
        let q = layout.dialect
        let known = try map.values(of: keys, connection)
        let condition = KeyColumnMatch.condition(columns: map.columns, alias: "t0", q)
        let sql = "SELECT \(selection.selectList) FROM \(q.quote(layout.table(of: root.name)!)) AS t0 WHERE \(condition) AND \(layout.qualifiedKey("t0")) = ?"
        var rest: [Int64] = []
        for key in keys {
            guard let row = known.values[key] else {
                if known.nullKeyed.contains(key) { rest.append(key) }
                continue
            }
            let statement = try connection.cachedStatement(sql)
            statement.rewind()
            try statement.bind(row + [.integer(key)])
            while try statement.step() { try body(statement.int64(0), statement) }
        }
        return rest
    }

    /// The current row's attribute values for an entity (`.null` for transient ones).
    /// `read`: what `Selection.read(_:)` gave for the row (its values are decoded from
    /// there when it holds them).
    static func values(from s: Statement, plan: Plan, read: UnsafePointer<OpaquePointer?>? = nil) -> [Value] {
        [Value](unsafeUninitializedCapacity: plan.sources.count) { buffer, count in
            initializeValues(buffer.baseAddress!, from: s, plan: plan, read: read)
            count = plan.sources.count
        }
    }

    /// Initializes `plan.sources.count` values at `row` from the current row.
    static func initializeValues(_ row: UnsafeMutablePointer<Value>, from s: Statement, plan: Plan, read: UnsafePointer<OpaquePointer?>?) {
        for (i, source) in plan.sources.enumerated() {
            let v: Value
            if source.column < 0 {
                v = .null
            } else if let read {
                v = s.value(read[source.column], at: source.column, as: source.type)
            } else {
                v = s.value(at: source.column, as: source.type)
            }
            (row + i).initialize(to: v)
        }
    }

    /// Fills an object's values (and to-one keys) from the current row.
    func fill(_ o: ManagedObject, from s: Statement, selection: Selection) {
        guard let plan = selection.plans[o.entity.name] else { return }
        let read = selection.read(s)
        o.values = Self.values(from: s, plan: plan, read: read.values)
        fillRest(o, from: s, plan: plan, version: read.version)
    }

    /// Like `fill(_:from:selection:)`, but the values go into the fetch's shared row
    /// blocks instead of an array per object.
    func fill(_ o: ManagedObject, from s: Statement, plan: Plan, selection: Selection, rows: inout RowBlockWriter) {
        let read = selection.read(s)
        let row = rows.nextRow(width: plan.sources.count)
        Self.initializeValues(row, from: s, plan: plan, read: read.values)
        o.useSharedRow(row, in: rows.block)
        fillRest(o, from: s, plan: plan, version: read.version)
    }

    /// Like `fill(_:from:plan:selection:rows:)`, with the values kept as a compact row
    /// (`CompactRow`; SQLite statements): a fetch of many objects holds their bytes,
    /// not a `Value` and a `String` each. A row holding a value without a compact
    /// form (a decimal, a URL) goes to `rows` as values.
    func fill(_ o: ManagedObject, from s: Statement, plan: Plan, selection: Selection,
              compact: inout CompactRowWriter, rows: inout RowBlockWriter) {
        let read = selection.read(s)
        let encoder = compact.encoder
        encoder.begin(width: plan.sources.count)
        for source in plan.sources {
            guard source.column >= 0 else { encoder.appendNull(); continue }
            let v = read.values.map { $0[source.column] } ?? s.columnValue(source.column)
            s.appendCompact(v, at: source.column, as: source.type, to: encoder)
        }
        if encoder.isValid {
            o.useCompactRow(compact.store(), in: compact.block)
        } else {
            let row = rows.nextRow(width: plan.sources.count)
            Self.initializeValues(row, from: s, plan: plan, read: read.values)
            o.useSharedRow(row, in: rows.block)
        }
        fillRest(o, from: s, plan: plan, version: read.version)
    }

    /// Version, fault state and to-one keys from the current row.
    private func fillRest(_ o: ManagedObject, from s: Statement, plan: Plan, version: Int64) {
        o.version = version
        o.isFault = false
        if !plan.foreignKeys.isEmpty {
            if o.relations.isEmpty { o.relations = Array(repeating: nil, count: o.entity.relationships.count) }
            for (i, column) in plan.foreignKeys where o.relations[i] == nil || o.relations[i]?.isChanged == false {
                let destination: [ManagedObject]
                if s.isNull(column) {
                    destination = []
                } else {
                    let r = o.entity.relationships[i]
                    let id = context.store.objectID(entity: r.destination, primaryKey: s.int64(column))
                    destination = [context.registry[id] ?? context.faultWithoutIO(entityName: r.destination, id: id)]
                }
                o.relations[i] = Relation(stored: destination, current: destination)
            }
        }
    }
}

/// Finds the concrete entity (and its object-ID scope) of each fetched row from
/// the layout's entity column, without creating a String per row: a root without
/// sub-entities needs no lookup, otherwise the column's bytes are compared with
/// the entity names seen so far.
struct RowEntityResolver {
    typealias Resolved = (entity: Entity, scope: ObjectIDScope)
    private let single: Resolved?
    private var known: [([UInt8], Resolved)] = []
    private let store: PersistentStore
    /// The column holding the entity name.
    private let column: Int

    init(root: Entity, store: PersistentStore, entityColumn: Int = 1) {
        self.store = store
        self.column = entityColumn
        single = root.subentityNames.isEmpty ? (root, store.idScope(for: root)) : nil
    }

    mutating func resolve(_ s: Statement) -> Resolved? {
        if let single { return single }
        if let hit = s.withText(column, { bytes in known.first { $0.0.elementsEqual(bytes) } }) { return hit.1 }
        let name = s.string(column)
        guard let e = store.model.entity(named: name) else { return nil }
        let resolved = (e, store.idScope(for: e))
        known.append((Array(name.utf8), resolved))
        return resolved
    }
}

extension ManagedObjectContext {
    /// A fault for an ID whose concrete entity may be a sub-entity: resolved lazily on firing.
    func faultWithoutIO(entityName: String, id: ObjectID) -> ManagedObject {
        if let e = store.model.entity(named: entityName), e.subentityNames.isEmpty {
            return register(entity: e, id: id, isFault: true)
        }
        // Without the concrete entity, a fault of the named one: firing it reports any error.
        return (try? object(with: id)) ?? register(entity: store.model.entity(named: entityName)!, id: id, isFault: true)
    }

    func selection(for root: Entity) -> RowLoader.Selection {
        if let s = selections[root.name] { return s }
        let s = RowLoader.Selection(entity: root, layout: store.layout)
        selections[root.name] = s
        return s
    }
}
