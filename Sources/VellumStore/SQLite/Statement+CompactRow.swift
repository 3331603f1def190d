import CSQLite
import Foundation

extension Statement {
    /// True for a SQLite statement, whose columns `appendCompact` reads in place.
    var readsColumnsInPlace: Bool { remote == nil }

    /// Appends column `i` decoded as `type` to `encoder`: the same value as
    /// `value(_:at:as:)` gives, without making a `Value` (or a `String`) for the common
    /// cases. `v`: the column's value as `columnValue(i)` read it. SQLite only.
    func appendCompact(_ v: OpaquePointer?, at i: Int, as type: AttributeType, to encoder: CompactRowEncoder) {
        guard let v else { return encoder.appendNull() }
        // By storage class first: four literal cases, then the type.
        switch sqlite3_value_type(v) {
        case SQLITE_NULL:
            return encoder.appendNull()
        case SQLITE_TEXT where type == .string || type == .transformable:
            let p = sqlite3_value_text(v)
            return encoder.appendText(UnsafeRawBufferPointer(start: p, count: Int(sqlite3_value_bytes(v))))
        case SQLITE_INTEGER where type == .integer64 || type == .integer32 || type == .integer16:
            return encoder.appendInteger(sqlite3_value_int64(v))
        case SQLITE_INTEGER where type == .boolean:
            return encoder.appendBool(sqlite3_value_int64(v) != 0)
        case SQLITE_INTEGER where type == .double || type == .float, SQLITE_FLOAT where type == .double || type == .float:
            return encoder.appendDouble(sqlite3_value_double(v))
        case SQLITE_INTEGER where type == .date, SQLITE_FLOAT where type == .date:
            return encoder.appendDate(Date(timeIntervalSince1970: sqlite3_value_double(v) + dateEpoch))
        default:
            return encoder.append(value(v, at: i, as: type))
        }
    }
}
