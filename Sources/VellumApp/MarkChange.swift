/// How a key changes the marked rows; the runner turns rows into record IDs.
public enum MarkChange: Sendable, Equatable {
    /// Mark the row, or unmark it if it was marked.
    case toggle(row: Int)
    /// Mark every row of the range.
    case range(ClosedRange<Int>)
    /// Mark every listed row (the rows the filter lets through).
    case all
    /// Marked listed rows become unmarked and the others marked.
    case invert
}
