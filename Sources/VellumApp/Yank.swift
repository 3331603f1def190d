/// What `y`, `Y` and `:yank` copy: the cell or the rows (the marked ones, else the
/// cursor's), as plain text, TSV (with a header line) or JSON.
public struct Yank: Sendable, Equatable {
    public enum Scope: String, Sendable, Equatable { case cell, rows }
    public enum Format: String, Sendable, Equatable { case text, tsv, json }
    public var scope: Scope
    public var format: Format
}
