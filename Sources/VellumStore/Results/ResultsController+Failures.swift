import Foundation

extension ResultsController {
    /// What re-evaluating one changed object found.
    enum Evaluation {
        /// It belongs to the results, with these sort keys.
        case included(SortKeys)
        /// It does not belong (deleted, gone from the store, another entity, or the predicate is false).
        case excluded
        /// It could not be read or evaluated; whether it belongs is unknown.
        case failed(StoreError)
    }

    /// True for errors that mean the object is not there (deleted, gone from the
    /// store, an unsaved insert that was rolled back): it leaves the list. Any other
    /// error says nothing about whether it belongs.
    static func meansAbsent(_ error: any Error) -> Bool {
        switch error as? StoreError {
        case .objectNotFound?, .wrongContext?: return true
        default: return false
        }
    }

    /// Records an error met while keeping the list current and tells the delegate.
    /// The rows involved stay as they were; nothing is dropped silently.
    func report(_ error: any Error) {
        let e = StoreError(nesting: error)
        lastError = e
        delegate?.controller(self, didFailToUpdate: e)
    }
}
