/// How the user arranged an entity's table columns: their order, which are
/// hidden and which were given a width, and which attribute names its records. Names, not indices, so a model that
/// gains or loses attributes keeps the rest of the arrangement.
public struct ColumnLayout: Sendable, Equatable, Codable {
    /// Attribute names in the order shown; attributes not listed follow in model order.
    public var order: [String] = []
    public var hidden: Set<String> = []
    /// Cells the resize keys added to (or took from) the width a column's values need.
    public var widthChanges: [String: Int] = [:]
    /// The attribute that names this entity's records in to-one columns, fields and
    /// the picker (`:display KEY`); nil: the first name-like attribute.
    public var displayKey: String?

    public init() {}

    public var isEmpty: Bool { order.isEmpty && hidden.isEmpty && widthChanges.isEmpty && displayKey == nil }

    /// Every column of `all` (model order) in the user's order, hidden ones included.
    public func ordered(_ all: [String]) -> [String] {
        let known = order.filter(all.contains)
        return known + all.filter { !known.contains($0) }
    }

    /// The columns the table shows.
    public func shown(_ all: [String]) -> [String] { ordered(all).filter { !hidden.contains($0) } }

    /// Moves `name` one place left (-1) or right (+1) among the shown columns of `all`.
    public mutating func move(_ name: String, by offset: Int, in all: [String]) {
        var names = ordered(all)
        let visible = shown(all)
        guard let at = visible.firstIndex(of: name), visible.indices.contains(at + offset),
              let from = names.firstIndex(of: name), let to = names.firstIndex(of: visible[at + offset]) else { return }
        names.swapAt(from, to)
        order = names
    }

    /// How far the resize keys go from the width the values need, and by how much a press.
    public static let widthChangeRange = -40...120
    public static let resizeStep = 2
}
