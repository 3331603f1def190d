import Foundation

extension ForeignSchema {
    /// What a single-column foreign key refers to, where a to-one can stand for it: a
    /// table's rowid (`INTEGER PRIMARY KEY`, `isRowID`), its other single-column primary key
    /// (text, `INT`, `WITHOUT ROWID`) or a UNIQUE column. Nil for composite keys, views,
    /// tables whose rows cannot be addressed, and columns that are no key.
    public struct KeyReference: Sendable, Hashable {
        public var target: Table
        /// The referenced column, as the target spells it.
        public var column: String
        /// True when the column is the target's rowid: the foreign key holds the target's object key itself.
        public var isRowID: Bool
    }

    public func reference(_ key: ForeignKey) -> KeyReference? {
        guard key.from.count == 1, let target = table(named: key.table), !target.isView, target.identity != nil else { return nil }
        let primaryKey = target.primaryKey
        guard let named = key.to[0] ?? (primaryKey.count == 1 ? primaryKey[0] : nil), let column = target.column(named: named) else { return nil }
        if column.name == target.integerPrimaryKey { return KeyReference(target: target, column: column.name, isRowID: true) }
        let isKey = primaryKey.count == 1 && primaryKey[0] == column.name
        let isUnique = target.uniqueColumnSets.contains { $0.count == 1 && $0[0].caseInsensitiveCompare(column.name) == .orderedSame }
        return isKey || isUnique ? KeyReference(target: target, column: column.name, isRowID: false) : nil
    }
}

extension ForeignSchema {
    /// What a foreign key of two or more columns refers to, where a to-one can stand for it:
    /// the target's primary key or a UNIQUE set of its columns (SQLite refuses a foreign key
    /// to anything else). `from[i]` refers to `to[i]`, both spelled as their tables spell them.
    public struct CompositeReference: Sendable, Hashable {
        public var target: Table
        public var from: [String]
        public var to: [String]
    }

    /// Nil for single-column keys (`reference`), views, tables whose rows cannot be
    /// addressed, columns that are missing, and column sets that are no key of the target.
    public func compositeReference(_ key: ForeignKey, in source: Table) -> CompositeReference? {
        guard key.from.count >= 2, let target = table(named: key.table), !target.isView, target.identity != nil else { return nil }
        let primaryKey = target.primaryKey
        let named: [String?] = key.to.allSatisfy { $0 == nil } && primaryKey.count == key.from.count ? primaryKey : key.to
        guard named.count == key.from.count else { return nil }
        let to = named.compactMap { $0.flatMap { target.column(named: $0)?.name } }
        let from = key.from.compactMap { source.column(named: $0)?.name }
        guard to.count == named.count, from.count == key.from.count else { return nil }
        func sameSet(_ set: [String]) -> Bool {
            set.count == to.count && Set(set.map { $0.lowercased() }) == Set(to.map { $0.lowercased() })
        }
        guard sameSet(primaryKey) || target.uniqueColumnSets.contains(where: sameSet) else { return nil }
        return CompositeReference(target: target, from: from, to: to)
    }
}
