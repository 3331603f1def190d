import Foundation

/// The SQL adding and removing the row of one pair (source key `?1`, target key `?2`) in a
/// join table. A table keeping each pair once (`JoinTable.keepsEachPairOnce`) may hold it
/// in either column order: it is removed in both, and added only when in neither, so the
/// save of both members' sets writes one row.
struct JoinPairRow {
    let deleteSQL: String
    let insertSQL: String

    init(join: JoinTable, target: String, dialect q: any SQLDialect) {
        let (s, t) = (q.quote(join.sourceColumn), q.quote(join.targetColumn))
        guard join.keepsEachPairOnce else {
            deleteSQL = "DELETE FROM \(target) WHERE \(s) = ? AND \(t) = ?"
            insertSQL = q.insertIgnoringDuplicates(intoTarget: target, columns: [join.sourceColumn, join.targetColumn])
            return
        }
        let either = "(\(s) = ?1 AND \(t) = ?2) OR (\(s) = ?2 AND \(t) = ?1)"
        deleteSQL = "DELETE FROM \(target) WHERE \(either)"
        insertSQL = "INSERT INTO \(target) (\(s), \(t)) SELECT ?1, ?2 WHERE NOT EXISTS (SELECT 1 FROM \(target) WHERE \(either))"
    }
}
