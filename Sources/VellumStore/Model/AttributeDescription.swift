import Foundation

/// An attribute of an entity: a typed value with validation rules.
public struct AttributeDescription: Sendable, Hashable {
    public var name: String
    public var type: AttributeType
    public var isOptional: Bool
    /// Transient attributes live in memory only: no column.
    public var isTransient: Bool
    public var defaultValue: Value?
    /// Minimum value (numbers, dates) or minimum length (strings, binary).
    public var minValue: Double?
    /// Maximum value (numbers, dates) or maximum length (strings, binary).
    public var maxValue: Double?
    /// A regular expression a string value must match as a whole.
    public var regex: String?
    public var isIndexed: Bool
    /// Kept in persistent history when the row is deleted (a tombstone value).
    public var preservesValueInHistoryOnDeletion: Bool
    /// Xcode's renaming identifier, for migration.
    public var renamingIdentifier: String?
    /// The Swift `Codable` type a transformable attribute holds (JSON models' `"class"`, as
    /// Xcode's Custom Class): generated entities type the property with it, stored as its
    /// JSON. Not part of the version hash (the column is the same). Xcode models keep
    /// theirs in `CoreDataPropertyDetails` (archived values, not JSON).
    public var customClassName: String?
    /// A composite attribute's elements (`type == .composite`), in declared order; an
    /// element may itself be a composite. Empty for other types. See `leaves(…)`.
    public var elements: [AttributeDescription]
    /// The composite type's name in Xcode models (`<composite name="Magnitude">`, which
    /// several attributes may share); nil takes the attribute's name, capitalized.
    public var compositeName: String?

    public init(
        name: String, type: AttributeType, isOptional: Bool = true, isTransient: Bool = false,
        defaultValue: Value? = nil, minValue: Double? = nil, maxValue: Double? = nil,
        regex: String? = nil, isIndexed: Bool = false,
        preservesValueInHistoryOnDeletion: Bool = false, renamingIdentifier: String? = nil,
        customClassName: String? = nil, elements: [AttributeDescription] = [], compositeName: String? = nil
    ) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.defaultValue = defaultValue
        self.minValue = minValue
        self.maxValue = maxValue
        self.regex = regex
        self.isIndexed = isIndexed
        self.preservesValueInHistoryOnDeletion = preservesValueInHistoryOnDeletion
        self.renamingIdentifier = renamingIdentifier
        self.customClassName = customClassName
        self.elements = elements
        self.compositeName = compositeName
    }

    /// A composite attribute of `elements`.
    public static func composite(_ name: String, _ elements: [AttributeDescription], optional: Bool = true,
                                 compositeName: String? = nil, renamingIdentifier: String? = nil) -> AttributeDescription {
        AttributeDescription(name: name, type: .composite, isOptional: optional, renamingIdentifier: renamingIdentifier,
                             elements: elements, compositeName: compositeName)
    }
}
