import Foundation

/// A composite attribute as one value, the way Core Data hands it out as a dictionary:
/// its leaves by their path inside the composite (`richter`, `coords.lat`). Each leaf is
/// an attribute of its own (`magnitude.richter`), so `value(forKey:)` reads one directly.
extension ManagedObject {
    /// The composite `name`'s values, by element path; nil elements are `.null`.
    /// An unknown name, or one that is not a composite, throws.
    public func compositeValues(_ name: String) throws(StoreError) -> [String: Value] {
        let prefix = try compositePrefix(name)
        if isFault { try StoreError.nesting { try fireFault() } }
        var values: [String: Value] = [:]
        for (i, key) in entity.attributeNames.enumerated() where key.hasPrefix(prefix) {
            values[String(key.dropFirst(prefix.count))] = storedValue(at: i)
        }
        return values
    }

    /// Sets elements of the composite `name` by element path; elements not named keep
    /// their values. An unknown element or a bad value throws before anything changes.
    public func setCompositeValues(_ values: [String: Value], for name: String) throws(StoreError) {
        let prefix = try compositePrefix(name)
        try StoreError.nesting { try setValues(Dictionary(uniqueKeysWithValues: values.map { (prefix + $0.key, $0.value) })) }
    }

    private func compositePrefix(_ name: String) throws(StoreError) -> String {
        guard entity.compositePaths.contains(name) else {
            throw .invalidOperation("\(entity.name) has no composite attribute '\(name)'")
        }
        return name + "."
    }
}
