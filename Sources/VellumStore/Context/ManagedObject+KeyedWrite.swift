import Foundation

extension ManagedObject {
    /// Reads and writes an attribute by name without `try`, like Core Data's property
    /// setters: a write that cannot apply (unknown key, wrong type, deleted object)
    /// changes nothing and is reported by the context's next `save()`, which throws it.
    /// A read through this subscript cannot throw either (a settable subscript's getter
    /// may not): where `try object["key"]` would throw it gives `.null` and, like a
    /// typed entity's getter, leaves the reason for the context's next `save()` to
    /// throw, so the failed read is never taken silently for a null. Plain reads
    /// (`try object["key"]`) use the throwing subscript.
    public subscript(key: AttributeKey) -> Value {
        get {
            do { return try value(forKey: key.name) } catch {
                context?.deferredErrors.append(StoreError(nesting: error))
                return .null
            }
        }
        set {
            do { try setValue(newValue, forKey: key.name) } catch {
                context?.deferredErrors.append(StoreError(nesting: error))
            }
        }
    }
}
