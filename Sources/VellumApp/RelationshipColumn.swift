import VellumStore

/// A relationship shown as a table column, after the attributes: a to-one shows
/// its target's display name, a to-many how many records it holds. Both sort
/// (`provider.name`, `images.@count`) and filter (`/ images.@count > 3`).
public struct RelationshipColumn: Sendable, Equatable {
    public var name: String
    public var destination: String
    public var isToMany: Bool
    /// The destination's attributes a display key can be (`:display KEY` completes them).
    public var destinationAttributes: [String]
    /// The destination's first name-like attribute (`DisplayName.nameLikeKeys`), if any.
    public var defaultDisplayKey: String?

    public init(_ relationship: RelationshipDescription, destination: Entity?) {
        name = relationship.name
        self.destination = relationship.destination
        isToMany = relationship.isToMany
        destinationAttributes = destination?.attributes.filter { !$0.isTransient }.map(\.name) ?? []
        defaultDisplayKey = destination.flatMap { DisplayName.nameLikeKeys(of: $0).first }
    }

    /// What the table shows for the column's type: counts are numbers (right-aligned);
    /// display names are text.
    var displayType: AttributeType { isToMany ? .integer64 : .string }
}

extension AppState {
    /// The relationship column named `name` of the open list, if it is one.
    public func relationshipColumn(_ name: String) -> RelationshipColumn? { relationshipColumns[name] }

    /// The relationship column under the cursor, if the cursor is on one.
    public var cursorRelationshipColumn: RelationshipColumn? {
        columnNames.indices.contains(cursorColumn) ? relationshipColumns[columnNames[cursorColumn]] : nil
    }

    /// The attribute that names `entity`'s records, as the user chose it (`:display`).
    public func displayKey(of entity: String) -> String? { columnLayouts[entity]?.displayKey }

    /// The display name of `object`'s to-one `key` target (nil: none), as a column, a
    /// detail field, a yank and the viewer show it; a name that cannot be read throws.
    func targetName(of object: ManagedObject, _ key: String) throws -> String? {
        try object.toOne(key).map { try DisplayName.described($0, key: displayKey(of: $0.entity.name)) }
    }

    /// The key path a sort by column `name` uses: the attribute itself, a to-one's
    /// display key through it, a to-many's count; nil when a to-one's target has no
    /// attribute to name it by.
    public func sortKeyPath(ofColumn name: String) -> [String]? {
        // An attribute's column sorts by its key path: a composite's element
        // (`magnitude.richter`) as a typed `:sort` spells it.
        guard let r = relationshipColumns[name] else { return name.split(separator: ".", omittingEmptySubsequences: false).map(String.init) }
        if r.isToMany { return [name, "@count"] }
        let key = DisplayName.sortKey(chosen: displayKey(of: r.destination), among: r.destinationAttributes, otherwise: r.defaultDisplayKey)
        return key.map { [name, $0] }
    }
}
