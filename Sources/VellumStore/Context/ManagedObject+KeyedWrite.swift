import Foundation

extension ManagedObject {
    /// Reads and writes an attribute by name without `try`, like Core Data's property
    /// setters: a write that cannot apply (unknown key, wrong type, deleted object)
    /// changes nothing and is reported by the context's next `save()`, which throws it.
    /// Reading through this subscript gives `.null` where `try object["key"]` would
    /// throw; plain reads (`try object["key"]`) use the throwing subscript.
    public subscript(key: AttributeKey) -> Value {
        get { (try? value(forKey: key.name)) ?? .null }
        set {
            do { try setValue(newValue, forKey: key.name) } catch {
                context?.deferredErrors.append(StoreError(nesting: error))
            }
        }
    }
}
