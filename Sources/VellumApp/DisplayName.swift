import VellumStore

/// How a record is named where it stands for itself — a to-one column or field,
/// the picker, a status line: by its entity's display key (chosen with
/// `:display KEY`, kept in the column layout), else its first name-like
/// attribute that has a value, else "Image p35".
enum DisplayName {
    /// The display name; a value that cannot be read falls back to the short name.
    static func of(_ o: ManagedObject, key chosen: String? = nil) -> String {
        (try? described(o, key: chosen)) ?? short(o)
    }

    /// `of`, but a name that cannot be read (its row gone from under a fault, another
    /// program's schema change) throws, so the detail pane and the table say why.
    /// A target whose row is missing (a dangling reference written elsewhere) says so.
    static func described(_ o: ManagedObject, key chosen: String? = nil) throws -> String {
        if o.isMissing { return "⚠ missing " + short(o) }
        let keys = chosen.flatMap { o.entity.attribute(named: $0) }.map { [$0.name] } ?? nameLikeKeys(of: o.entity)
        for key in keys {
            let v = try o.value(forKey: key)
            if !v.isNull { return v.description }
        }
        return short(o)
    }

    /// "Image p35" ("Image new" before its first save): what the detail pane's title
    /// says. The object's URI repeats the store's UUID in front of every object, so a
    /// picker or a status line of URIs could not tell two objects apart.
    static func short(_ o: ManagedObject) -> String {
        "\(o.entity.name) \(o.objectID.primaryKey.map { "p\($0)" } ?? "new")"
    }

    /// The entity's name-like attributes in order of preference, matched ignoring case:
    /// other programs' databases say `Name` or `TITLE` (Chinook), not `name`.
    static func nameLikeKeys(of entity: Entity) -> [String] {
        ["name", "title", "displayname", "label"].compactMap { wanted in
            entity.attributes.first { $0.name.lowercased() == wanted && !$0.isTransient }?.name
        }
    }

    /// The attribute a list of `entity` sorts by to follow its display names: the
    /// chosen key when it is one of its attributes, else the first name-like one.
    static func sortKey(of entity: Entity, chosen: String?) -> String? {
        sortKey(chosen: chosen, among: entity.attributes.filter { !$0.isTransient }.map(\.name),
                otherwise: nameLikeKeys(of: entity).first)
    }

    /// The one rule, for callers that keep the entity's names (`RelationshipColumn`):
    /// the chosen key when it is one of `attributes`, else the name-like default.
    static func sortKey(chosen: String?, among attributes: [String], otherwise fallback: String?) -> String? {
        if let chosen, attributes.contains(chosen) { return chosen }
        return fallback
    }
}
