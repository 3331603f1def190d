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
        let storage = sqlite3_value_type(v)
        switch (type, storage) {
        case (_, SQLITE_NULL):
            encoder.appendNull()
        case (.string, SQLITE_TEXT), (.transformable, SQLITE_TEXT):
            let p = sqlite3_value_text(v)
            encoder.appendText(UnsafeRawBufferPointer(start: p, count: Int(sqlite3_value_bytes(v))))
        case (.integer16, SQLITE_INTEGER), (.integer32, SQLITE_INTEGER), (.integer64, SQLITE_INTEGER):
            encoder.appendInteger(sqlite3_value_int64(v))
        case (.boolean, SQLITE_INTEGER):
            encoder.appendBool(sqlite3_value_int64(v) != 0)
        case (.double, SQLITE_INTEGER), (.double, SQLITE_FLOAT), (.float, SQLITE_INTEGER), (.float, SQLITE_FLOAT):
            encoder.appendDouble(sqlite3_value_double(v))
        case (.date, SQLITE_INTEGER), (.date, SQLITE_FLOAT):
            encoder.appendDate(Date(timeIntervalSince1970: sqlite3_value_double(v) + dateEpoch))
        default:
            encoder.append(value(v, at: i, as: type))
        }
    }
}
