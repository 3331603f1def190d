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
