/// An `:export` that found an existing file and waits for the user's yes.
public struct PendingExport: Sendable, Equatable {
    public var format: String
    public var path: String
}
