import VellumStore

/// SQLite is dynamically typed: another program's database may hold text in an
/// INTEGER column, a number in a DATE column. Such a value is read as it is
/// stored (never coerced, never rewritten unless edited) and shown marked, so
/// it is not mistaken for a value of the column's type.
@MainActor
enum OddValueMark {
    /// Put before a table cell whose value does not fit its column's type.
    static let mark = "≠"

    /// Whether `value` is of the kind `type` stores (null fits every type).
    static func fits(_ value: Value, _ type: AttributeType) -> Bool {
        switch (type, value) {
        case (_, .null), (.undefined, _), (.transformable, _): return true
        case (.integer16, .integer), (.integer32, .integer), (.integer64, .integer): return true
        case (.double, .double), (.float, .double), (.decimal, .decimal): return true
        case (.string, .string), (.boolean, .bool), (.date, .date), (.binary, .data), (.uuid, .uuid), (.uri, .uri): return true
        default: return false
        }
    }

    /// The table cell: the value's text, marked when it does not fit.
    static func tableText(_ value: Value, _ type: AttributeType?) -> String {
        let text = Renderer.tableText(value)
        guard let type, !fits(value, type) else { return text }
        return mark + text
    }

    /// The detail field: the value, and what it is stored as when that is not the column's type.
    static func detailText(_ value: Value, _ type: AttributeType) -> String {
        let text = Renderer.cellText(value)
        return fits(value, type) ? text : "\(text)  \(mark) stored as \(value.kindName), column is \(type.rawValue)"
    }
}
