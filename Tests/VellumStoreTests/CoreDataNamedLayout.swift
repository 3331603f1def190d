import Foundation
@testable import VellumStore

/// A second layout, for tests only: Core Data's names (`Z_PK`, `Z_ENT`, `Z_OPT`,
/// tables `Z<ROOT>`, columns `Z<NAME>`, join tables `Z_<TABLE>`, ordering columns
/// `Z_FOK_<NAME>`) over the native layout's choices of where each relationship
/// lives. Proves that a layout is added without touching contexts, queries or results.
final class CoreDataNamedLayout: StoreLayout {
    let model: ManagedObjectModel
    let dialect: any SQLDialect = SQLiteDialect()
    let primaryKeyColumn = "Z_PK"
    let entityColumn = "Z_ENT"
    let versionColumn = "Z_OPT"
    let joinTables: [JoinTable]
    private let mappings: [String: EntityMapping]
    /// Versions as a test wants them, whether saves are audited in `Z_AUDIT`
    /// (`finishSave`), and whether changes are read from rows (`changeSource`).
    let firstVersion: Int64, versionStep: Int64, audits: Bool, readsRowVersions: Bool

    init(model: ManagedObjectModel, firstVersion: Int64 = 1, versionStep: Int64 = 1, audits: Bool = false, readsRowVersions: Bool = false) {
        self.model = model
        self.firstVersion = firstVersion
        self.versionStep = versionStep
        self.audits = audits
        self.readsRowVersions = readsRowVersions
        let native = NativeLayout(model: model)
        var mappings: [String: EntityMapping] = [:]
        for name in model.entityNames {
            let m = native.mapping(for: name)!
            mappings[name] = EntityMapping(entity: m.entity, table: Self.table(m.table), attributeColumns: m.attributeColumns.map { $0.map(Self.column) },
                                           relationshipStorage: m.relationshipStorage.map(Self.storage))
        }
        self.mappings = mappings
        joinTables = native.joinTables.map {
            JoinTable(table: Self.joinTable($0.table), sourceColumn: Self.joinColumn($0.sourceColumn), sourceTable: Self.table($0.sourceTable),
                      sourceRelationship: $0.sourceRelationship, targetColumn: Self.joinColumn($0.targetColumn),
                      targetTable: Self.table($0.targetTable), targetRelationship: $0.targetRelationship)
        }
    }

    static func table(_ native: String) -> String { "Z" + native.uppercased() }
    static func column(_ native: String) -> String { "Z" + native.uppercased() }
    static func joinTable(_ native: String) -> String { "Z_" + native.uppercased() }
    static func joinColumn(_ native: String) -> String { "Z_" + native.uppercased() }
    static func position(_ native: String) -> String { "Z_FOK_" + native.uppercased() }

    static func storage(_ s: RelationshipStorage) -> RelationshipStorage {
        switch s {
        case .foreignKey(let c): return .foreignKey(column: column(c))
        case .inverseForeignKey(let t, let c, let p): return .inverseForeignKey(table: table(t), column: column(c), positionColumn: p.map(position))
        case .joinTable(let t, let s, let d, let p):
            return .joinTable(table: joinTable(t), sourceColumn: joinColumn(s), targetColumn: joinColumn(d), positionColumn: p.map(position))
        }
    }

    func mapping(for entityName: String) -> EntityMapping? { mappings[entityName] }

    var initialVersion: Int64 { firstVersion }
    func nextVersion(after version: Int64) -> Int64 { version + versionStep }

    var changeSource: LayoutChangeSource {
        readsRowVersions ? .rowVersions(RowVersionSource(entityNames: [:], tables: [], hasCoreDataHistory: false)) : .vellumHistory
    }

    /// One `Z_AUDIT` row per written row, in the saving transaction.
    func finishSave(_ db: Connection, _ save: () -> SavedRows) throws(StoreError) -> Int64? {
        guard audits else { return nil }
        let rows = save()
        for (kind, written) in [("insert", rows.inserted), ("update", rows.updated), ("delete", rows.deleted)] {
            for row in written {
                try db.run("INSERT INTO Z_AUDIT (ZENTITY, ZKEY, ZKIND) VALUES (?, ?, ?)", [.string(row.entity), .integer(row.key), .string(kind)])
            }
        }
        return nil
    }

    func joinTable(named table: String) -> JoinTable? { joinTables.first { $0.table == table } }

    func largestKeyEverSQL(table: String) -> String {
        "SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = ?1), 0), coalesce((SELECT max(Z_PK) FROM \(dialect.quote(table))), 0))"
    }

    func schemaSQL() -> [String] {
        let q = dialect
        var sql: [String] = []
        var positions: [String: Set<String>] = [:]
        for root in model.rootEntities {
            let table = mappings[root.name]!.table
            var columns = ["Z_PK INTEGER PRIMARY KEY AUTOINCREMENT", "Z_ENT TEXT NOT NULL", "Z_OPT INTEGER NOT NULL DEFAULT 1"]
            var seen: Set<String> = []
            var indexes: [String] = []
            for name in root.hierarchyNames {
                let m = mappings[name]!
                for (i, a) in m.entity.attributes.enumerated() {
                    guard let c = m.attributeColumns[i], seen.insert(c).inserted else { continue }
                    columns.append("\(q.quote(c)) \(a.type.sqlType)")
                }
                for (i, s) in m.relationshipStorage.enumerated() {
                    switch s {
                    case .foreignKey(let c) where seen.insert(c).inserted:
                        let target = mappings[m.entity.relationships[i].destination]!.table
                        columns.append("\(q.quote(c)) INTEGER REFERENCES \(q.quote(target))(Z_PK) ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED")
                    case .inverseForeignKey(let t, _, let p?): positions[t, default: []].insert(p)
                    default: break
                    }
                }
                for (n, constraint) in m.entity.declaration.uniquenessConstraints.enumerated() {
                    let cols = constraint.map { q.quote(m.attributeColumns[m.entity.attributeIndexByName[$0]!]!) }
                    indexes.append("CREATE UNIQUE INDEX \(q.quote("\(table)_UNIQUE_\(name)_\(n)")) ON \(q.quote(table)) (\(cols.joined(separator: ", ")))")
                }
            }
            sql.append("CREATE TABLE \(q.quote(table)) (\(columns.joined(separator: ", ")))")
            sql.append(contentsOf: indexes)
        }
        for (table, columns) in positions.sorted(by: { $0.key < $1.key }) {
            sql += columns.sorted().map { "ALTER TABLE \(q.quote(table)) ADD COLUMN \(q.quote($0)) INTEGER" }
        }
        for j in joinTables {
            sql.append("""
                CREATE TABLE \(q.quote(j.table)) (\
                \(q.quote(j.sourceColumn)) INTEGER NOT NULL REFERENCES \(q.quote(j.sourceTable))(Z_PK) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED, \
                \(q.quote(j.targetColumn)) INTEGER NOT NULL REFERENCES \(q.quote(j.targetTable))(Z_PK) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED, \
                \(q.quote(Self.position("target_position"))) INTEGER, \(q.quote(Self.position("source_position"))) INTEGER, \
                PRIMARY KEY (\(q.quote(j.sourceColumn)), \(q.quote(j.targetColumn)))) WITHOUT ROWID
                """)
        }
        if audits { sql.append("CREATE TABLE Z_AUDIT (ZENTITY TEXT NOT NULL, ZKEY INTEGER NOT NULL, ZKIND TEXT NOT NULL)") }
        return sql
    }
}
