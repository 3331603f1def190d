import Foundation

/// Errors from `ResultsController`.
public enum ResultsControllerError: Error, Sendable, Equatable, CustomStringConvertible {
    case missingSortDescriptors
    case sectionKeyPathNotFirstSortKey(sectionKeyPath: String, firstSortKey: String)
    case sectionSortMustBeBinary(String)
    case notFetched
    case indexPathOutOfRange(ResultsIndexPath)

    public var description: String {
        switch self {
        case .missingSortDescriptors: return "a results controller needs at least one sort descriptor"
        case .sectionKeyPathNotFirstSortKey(let s, let f):
            return "the section key path '\(s)' must be the first sort descriptor's key path (it is '\(f)')"
        case .sectionSortMustBeBinary(let s): return "the sort descriptor for the section key path '\(s)' must use binary comparison"
        case .notFetched: return "performFetch() has not been called"
        case .indexPathOutOfRange(let p): return "index path \(p) is out of range"
        }
    }
}
