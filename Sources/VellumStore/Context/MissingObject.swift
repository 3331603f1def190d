import Foundation

extension ManagedObject {
    /// True when the object's row is not in the store: the target of a dangling
    /// reference (a to-one written by another program pointing at a missing row),
    /// or an object deleted elsewhere. Such a target can be read as missing, and
    /// the reference cleared or its owner deleted; reading its values throws
    /// `objectNotFound`. Loads the row if the object is a fault.
    public var isMissing: Bool {
        guard isFault, !isInserted, let context else { return false }
        do { try context.fulfillFault(self) } catch StoreError.objectNotFound(_) { return true } catch { return false }
        return false
    }
}
