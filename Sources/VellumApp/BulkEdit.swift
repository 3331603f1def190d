/// `:set VALUE` over the marked rows, waiting for a yes: the column and the typed text.
public struct BulkEdit: Sendable, Equatable {
    public var key: String
    public var text: String
}
