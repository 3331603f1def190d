import Foundation

/// Records a Vellum save in persistent history, inside its transaction: one
/// row per entity, kind and changed-key set, with the primary keys packed
/// (deletes of entities that keep tombstone values get a row each).
struct HistoryWriter {
    let db: Connection
    let transaction: Int64
    let layout: any StoreLayout
    private let timestamp = Date().timeIntervalSince1970

    init(db: Connection, transaction: Int64, layout: any StoreLayout) {
        self.db = db
        self.transaction = transaction
        self.layout = layout
    }

    private static let insertSQL = """
        INSERT INTO \(HistorySchema.changes) (txn, timestamp, entity, pk, kind, columns, tombstone, pks) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """

    func record<Object: HistoryRecordable>(inserted: [Object], updated: [(Object, Set<String>)], deleted: [Object]) throws {
        var groups: [GroupKey: Int] = [:]  // index into `order`
        var order: [(key: GroupKey, pks: [Int64])] = []
        var last: (key: GroupKey, index: Int)?
        func add(_ key: GroupKey, _ pk: Int64) {
            // Saves come in runs of one entity and kind: only a new key is hashed.
            if let last, last.key == key { order[last.index].pks.append(pk); return }
            let index: Int
            if let i = groups[key] { index = i } else {
                index = order.count
                groups[key] = index
                order.append((key, []))
            }
            order[index].pks.append(pk)
            last = (key, index)
        }
        for o in inserted { if let pk = o.pendingKey ?? o.objectID.primaryKey { add(GroupKey(entity: o.entity.name, kind: 0, columns: nil), pk) } }
        for (o, keys) in updated {
            guard let pk = o.objectID.primaryKey else { continue }
            add(GroupKey(entity: o.entity.name, kind: 1, columns: keys.sorted().joined(separator: ",")), pk)
        }
        for o in deleted {
            guard let pk = o.objectID.primaryKey else { continue }
            if let tombstone = tombstone(of: o) {
                try write(entity: o.entity.name, kind: 2, columns: nil, tombstone: tombstone, pk: pk, pks: nil)
            } else {
                add(GroupKey(entity: o.entity.name, kind: 2, columns: nil), pk)
            }
        }
        for (key, pks) in order {
            if pks.count == 1 {
                try write(entity: key.entity, kind: key.kind, columns: key.columns, tombstone: nil, pk: pks[0], pks: nil)
            } else {
                try write(entity: key.entity, kind: key.kind, columns: key.columns, tombstone: nil, pk: nil, pks: Self.pack(pks))
            }
        }
    }

    private struct GroupKey: Hashable {
        var entity: String
        var kind: Int64
        var columns: String?
    }

    private func write(entity: String, kind: Int64, columns: String?, tombstone: String?, pk: Int64?, pks: Data?) throws {
        try db.run(Self.insertSQL, [.integer(transaction), .double(timestamp), .string(entity), pk.map(Value.integer) ?? .null,
                                    .integer(kind), columns.map(Value.string) ?? .null, tombstone.map(Value.string) ?? .null,
                                    pks.map(Value.data) ?? .null])
    }

    /// The values kept for a deleted object, as the triggers write them (column → value).
    /// Every value encodes (an infinity too), so no tombstone is dropped.
    private func tombstone(of o: some HistoryRecordable) -> String? {
        guard let m = layout.mapping(for: o.entity.name) else { return nil }
        let values = o.storedValues
        var columns: [(column: String, value: TombstoneJSON.Scalar)] = []
        for (i, a) in o.entity.attributes.enumerated() where a.preservesValueInHistoryOnDeletion {
            guard let column = m.attributeColumns[i], i < values.count else { continue }
            let value: TombstoneJSON.Scalar
            switch values[i] {
            case .null: value = .null
            case .integer(let v): value = .number(String(v))
            case .bool(let b): value = .number(b ? "1" : "0")
            case .double(let d): value = TombstoneJSON.number(d)
            case .date(let d): value = TombstoneJSON.number(d.timeIntervalSince1970)
            case .string(let s): value = .string(s)
            case .decimal(let d): value = .string("\(d)")
            case .uri(let u): value = .string(u.absoluteString)
            case .uuid(let u): value = .string(u.uuidString)
            case .data(let d): value = .string(d.base64EncodedString())
            }
            columns.append((column, value))
        }
        return columns.isEmpty ? nil : TombstoneJSON.encode(columns)
    }

    /// Keys as 8-byte little-endian integers, written in place (appending 8 bytes at a
    /// time cost ~800 instructions a key: 2.5% of a 100k-object insert).
    static func pack(_ keys: [Int64]) -> Data {
        var data = Data(count: keys.count * 8)
        data.withUnsafeMutableBytes { raw in
            for (i, k) in keys.enumerated() { raw.storeBytes(of: k.littleEndian, toByteOffset: i * 8, as: Int64.self) }
        }
        return data
    }

    static func unpack(_ data: Data) -> [Int64] {
        var keys: [Int64] = []
        keys.reserveCapacity(data.count / 8)
        data.withUnsafeBytes { raw in
            for i in stride(from: 0, to: raw.count - 7, by: 8) { keys.append(Int64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: Int64.self))) }
        }
        return keys
    }
}
