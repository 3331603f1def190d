import Foundation

/// The `userInfo` keys of an entity inferred from (or mapped onto) a foreign
/// database: which table, column, foreign-key column or join table each name
/// stands for. They travel with the model's JSON (`vellum model FILE --json`),
/// so an edited copy given back with `--model` keeps its columns.
public enum ForeignMappingKeys {
    public static let table = "sqlite.table"
    public static func column(_ attribute: String) -> String { "sqlite.column.\(attribute)" }
    public static func foreignKey(_ relationship: String) -> String { "sqlite.foreignKey.\(relationship)" }
    public static func joinTable(_ relationship: String) -> String { "sqlite.joinTable.\(relationship)" }
    /// How a date attribute's column stores dates (`ForeignDateStorage.userInfoValue`).
    public static func dateStorage(_ attribute: String) -> String { "sqlite.dateStorage.\(attribute)" }
    /// Why the entity's rows cannot be written (a view, a table without a primary key):
    /// shown by `vellum model`; the layout decides from the schema, not from this.
    public static let readOnly = "sqlite.readOnly"

    /// A JSON array `["table", "sourceColumn", "targetColumn"]`, readable and editable in the model's JSON.
    static func joinSpec(table: String, source: String, target: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [table, source, target])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// A composite foreign key's columns as a JSON array (`["order_id", "line_no"]`), the
    /// value of `foreignKey(_:)` for a to-one standing for one.
    static func columnsSpec(_ columns: [String]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: columns)) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// The columns of a `columnsSpec`, or nil for a single column's name.
    static func columnList(_ spec: String) -> [String]? {
        guard spec.hasPrefix("["), let parts = (try? JSONSerialization.jsonObject(with: Data(spec.utf8))) as? [String], parts.count >= 2 else { return nil }
        return parts
    }

    static func joinParts(_ spec: String) -> (table: String, source: String, target: String)? {
        guard let parts = (try? JSONSerialization.jsonObject(with: Data(spec.utf8))) as? [String], parts.count == 3 else { return nil }
        return (parts[0], parts[1], parts[2])
    }
}
