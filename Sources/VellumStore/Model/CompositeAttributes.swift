import Foundation

/// Composite attributes (Core Data's `NSCompositeAttributeDescription`) are declared as
/// one attribute holding elements, and resolved into one attribute per leaf element,
/// named by its key path: `magnitude` with elements `richter` and `depth` is stored,
/// fetched, validated and queried as `magnitude.richter` and `magnitude.depth`. So every
/// layer below the model (layouts, row loading, saving, predicates, sorting, the
/// browser) sees ordinary attributes; only model readers and writers see the grouping.
extension AttributeDescription {
    /// The attributes this declaration stands for in a resolved entity: itself, or for a
    /// composite its leaf elements (nested composites flattened), in declared order.
    /// A leaf is optional when it or any composite above it is; transient likewise;
    /// renamed (`renamingIdentifier`) when any level of its path was renamed.
    public var leaves: [AttributeDescription] {
        guard type == .composite else { return [self] }
        return elements.flatMap { element in
            element.leaves.map { leaf in
                var l = leaf
                l.name = "\(name).\(leaf.name)"
                l.isOptional = leaf.isOptional || isOptional
                l.isTransient = leaf.isTransient || isTransient
                l.preservesValueInHistoryOnDeletion = leaf.preservesValueInHistoryOnDeletion || preservesValueInHistoryOnDeletion
                if leaf.renamingIdentifier != nil || renamingIdentifier != nil {
                    l.renamingIdentifier = "\(renamingIdentifier ?? name).\(leaf.renamingIdentifier ?? leaf.name)"
                }
                return l
            }
        }
    }

    /// The key paths of this composite and of the composites nested in it (`location`,
    /// `location.coords`); empty for other attributes.
    var compositePaths: [String] {
        guard type == .composite else { return [] }
        return [name] + elements.flatMap { $0.compositePaths.map { "\(name).\($0)" } }
    }

    /// Checks a composite's shape: named elements, no value rules of its own.
    func validateComposite(entity: String) throws(ModelError) {
        if type != .composite {
            if !elements.isEmpty {
                throw .invalidName(entity: entity, property: name, detail: "only composite attributes have elements, not \(type.rawValue)")
            }
            return
        }
        if defaultValue != nil || minValue != nil || maxValue != nil || regex != nil {
            throw .invalidName(entity: entity, property: name, detail: "a composite attribute has no default, min, max or regex of its own: give them to its elements")
        }
        var seen: Set<String> = []
        for e in elements {
            if e.name.isEmpty || e.name.contains(".") || e.name.hasPrefix("_") {
                throw .invalidName(entity: entity, property: "\(name).\(e.name)", detail: "element names must be non-empty, without '.', and not start with '_'")
            }
            if !seen.insert(e.name.lowercased()).inserted {
                throw .invalidName(entity: entity, property: "\(name).\(e.name)", detail: "composite \(name) has two elements named \(e.name) (names ignore case)")
            }
            do { try e.validateComposite(entity: entity) } catch {
                guard case .invalidName(_, let p?, let detail) = error else { throw error }
                throw .invalidName(entity: entity, property: "\(name).\(p)", detail: detail)
            }
        }
    }
}

extension EntityDescription {
    /// The entity's own attributes as a resolved entity holds them: composites replaced by
    /// their leaf elements (`AttributeDescription.leaves`).
    public var leafAttributes: [AttributeDescription] { attributes.flatMap(\.leaves) }
}

extension Entity {
    /// The leaf attribute a key path that starts at a composite names, and how many keys
    /// it takes: (`magnitude`, `richter`, …) → `magnitude.richter`, 2. Nil when the path
    /// does not start at a composite or does not reach one of its leaves. O(path length).
    func compositeLeaf(_ path: ArraySlice<String>) -> (index: Int, length: Int)? {
        guard !compositePaths.isEmpty, let first = path.first, compositePaths.contains(first) else { return nil }
        var name = first
        for (n, key) in path.dropFirst().enumerated() {
            name += ".\(key)"
            if let i = attributeIndexByName[name] { return (i, n + 2) }
            guard compositePaths.contains(name) else { return nil }
        }
        return nil
    }

    /// `path` with a leading composite's keys joined into its leaf's name
    /// (`magnitude`, `richter` → `magnitude.richter`); `path` itself otherwise.
    func joiningCompositeKeys(_ path: ArraySlice<String>) -> ArraySlice<String> {
        guard let leaf = compositeLeaf(path) else { return path }
        return [attributeNames[leaf.index]] + path.dropFirst(leaf.length)
    }

    /// Why a key path ending at a composite (`magnitude`), or naming an element it does
    /// not have (`next`), names no value.
    func compositeWithoutElement(_ key: String, next: String?) -> String? {
        guard compositePaths.contains(key) else { return nil }
        let elements = Set((attributeNames + compositePaths).filter { $0.hasPrefix("\(key).") }
            .map { $0.dropFirst(key.count + 1).prefix { $0 != "." } }).sorted()
        let listed = elements.isEmpty ? "it has none" : "it has \(elements.joined(separator: ", "))"
        if let next { return "composite '\(key)' of \(name) has no element '\(next)' (\(listed))" }
        let example = attributeNames.first { $0.hasPrefix("\(key).") }
        return "'\(key)' of \(name) is a composite attribute: name one of its elements" + (example.map { ", as in '\($0)'" } ?? " (\(listed))")
    }
}
