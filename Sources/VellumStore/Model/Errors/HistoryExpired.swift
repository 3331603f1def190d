import Foundation

/// A consumer's token fell behind pruned history: changes were lost to it, so it must refetch everything.
public struct HistoryExpired: Error, Sendable, CustomStringConvertible {
    public var token: HistoryToken
    public var horizon: HistoryToken
    public var description: String { "history before \(horizon) was pruned; \(token) is too old: refetch everything" }
}
