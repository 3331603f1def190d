import Foundation

/// How another program's date column stores its dates. Read and edited as dates,
/// a date is written back in the same form (never converted to another one):
/// ISO-8601 text in the column's own style, Unix seconds (integer or real),
/// Unix milliseconds, or a Julian day number. Kept in the entity's `userInfo`
/// (`ForeignMappingKeys.dateStorage`), so a saved mapping keeps it and can set it.
public enum ForeignDateStorage: Sendable, Hashable {
    case text(ForeignDateTextStyle)
    case unixSeconds(integer: Bool)
    case unixMilliseconds
    case julianDay

    /// Julian day number of 1970-01-01T00:00:00Z.
    static let unixEpochJulianDay = 2_440_587.5

    /// The form of `samples` (a column's stored values, nil and empty left out):
    /// all ISO-8601 text, or all numbers in the range of one numeric form
    /// (Unix forms: years 1973–2200, so small numbers are not taken for dates;
    /// Julian days: 1800–2200); nil when they are mixed or fit none.
    static func infer(samples: [Value]) -> ForeignDateStorage? {
        guard let first = samples.first else { return nil }
        if case .string(let text) = first {
            guard let style = ForeignDateTextStyle(example: text),
                  samples.allSatisfy({ $0.stringValue.map { (try? ISODate.parse($0)) != nil } ?? false }) else { return nil }
            return .text(style)
        }
        let numbers = samples.compactMap { v -> Double? in
            switch v {
            case .integer(let i): return Double(i)
            case .double(let d): return d
            default: return nil
            }
        }
        guard numbers.count == samples.count else { return nil }
        func all(_ range: Range<Double>) -> Bool { numbers.allSatisfy(range.contains) }
        if all(1e8..<7_258_118_400) {
            return .unixSeconds(integer: samples.allSatisfy { if case .integer = $0 { return true } else { return false } })
        }
        if all(1e11..<7_258_118_400_000) { return .unixMilliseconds }
        if all(2_378_496.5..<2_524_593.5) { return .julianDay }
        return nil
    }

    /// How `column` of `table` stores dates, for an attribute a mapping makes a date with no
    /// `sqlite.dateStorage` entry (a text column marked `date` by hand): read from its values as
    /// inference reads them; an empty column by its affinity (numbers: Unix seconds, else
    /// text). Nil when its values are no dates.
    static func detect(column: ForeignSchema.Column, table: String, connection: Connection) throws(StoreError) -> ForeignDateStorage? {
        let c = quoteIdentifier(column.name)
        let samples = try connection.rows("SELECT \(c) FROM main.\(quoteIdentifier(table)) WHERE \(c) IS NOT NULL AND \(c) <> '' LIMIT 50").map { $0[0] }
        guard samples.isEmpty else { return infer(samples: samples) }
        switch ForeignColumnType.affinity(declared: column.declaredType) {
        case "INTEGER": return .unixSeconds(integer: true)
        case "REAL", "NUMERIC": return .unixSeconds(integer: false)
        default: return ForeignDateTextStyle(pattern: "YYYY-MM-DD HH:MM:SS").map(ForeignDateStorage.text) ?? .unixSeconds(integer: false)
        }
    }

    /// The value written for `value`: a date in this form; anything else as it is.
    func stored(_ value: Value) -> Value {
        guard case .date(let date) = value else { return value }
        let seconds = date.timeIntervalSince1970
        switch self {
        case .text(let style): return .string(style.text(seconds))
        case .unixSeconds(let integer):
            return integer && seconds == seconds.rounded() && abs(seconds) < 9e18 ? .integer(Int64(seconds)) : .double(seconds)
        case .unixMilliseconds:
            let ms = (seconds * 1000).rounded()
            return abs(ms) < 9e18 ? .integer(Int64(ms)) : .double(ms)
        case .julianDay: return .double(seconds / 86_400 + Self.unixEpochJulianDay)
        }
    }

    /// SQL reading `column` so that a stored number is Unix seconds (text is left
    /// as it is: ISO-8601 is parsed when read, anything else shows as stored).
    func readSQL(_ column: String) -> String {
        switch self {
        case .text, .unixSeconds: return column
        case .unixMilliseconds: return numbersOnly(column, "\(column) / 1000.0")
        case .julianDay: return numbersOnly(column, "(\(column) - \(Self.unixEpochJulianDay)) * 86400.0")
        }
    }

    /// SQL for `column` as Unix seconds, to compare and sort by: ISO-8601 text through
    /// `julianday` (rounded to its milliseconds, so whole seconds compare exactly).
    func secondsSQL(_ column: String) -> String {
        guard case .text = self else { return readSQL(column) }
        return "CASE WHEN typeof(\(column)) = 'text' THEN round((julianday(\(column)) - \(Self.unixEpochJulianDay)) * 86400000.0) / 1000.0 ELSE \(column) END"
    }

    private func numbersOnly(_ column: String, _ converted: String) -> String {
        "CASE WHEN typeof(\(column)) IN ('integer', 'real') THEN \(converted) ELSE \(column) END"
    }

    // MARK: In the model's userInfo

    /// `text YYYY-MM-DD HH:MM:SS`, `unixSeconds`, `unixSecondsReal`, `unixMilliseconds`, `julianDay`.
    public var userInfoValue: String {
        switch self {
        case .text(let style): return "text " + style.pattern
        case .unixSeconds(let integer): return integer ? "unixSeconds" : "unixSecondsReal"
        case .unixMilliseconds: return "unixMilliseconds"
        case .julianDay: return "julianDay"
        }
    }

    public init?(userInfoValue value: String) {
        switch value {
        case "unixSeconds": self = .unixSeconds(integer: true)
        case "unixSecondsReal": self = .unixSeconds(integer: false)
        case "unixMilliseconds": self = .unixMilliseconds
        case "julianDay": self = .julianDay
        default:
            guard value.hasPrefix("text "), let style = ForeignDateTextStyle(pattern: String(value.dropFirst(5))) else { return nil }
            self = .text(style)
        }
    }
}
