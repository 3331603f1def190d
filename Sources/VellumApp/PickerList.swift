import VellumStore

/// The to-one picker's candidates and what its search shows, as one value of the
/// state: the names on screen and the records they stand for cannot drift apart.
public struct PickerList: Sendable, Equatable {
    public struct Candidate: Sendable, Equatable {
        public var id: ObjectID
        public var name: String
        public init(id: ObjectID, name: String) { self.id = id; self.name = name }
    }

    public private(set) var candidates: [Candidate] = []
    /// The records shown, in order: ∅ (nil, clears the to-one) first, then the matches.
    public private(set) var shown: [ObjectID?] = [nil]
    /// Their names as listed.
    public private(set) var items: [String] = [PickerList.none]
    static let none = "∅ (none)"

    public init(candidates: [Candidate] = []) {
        self.candidates = candidates
        search("")
    }

    /// Shows ∅ and the candidates whose name contains `query` (any case); returns how many match.
    @discardableResult
    public mutating func search(_ query: String) -> Int {
        let q = query.lowercased()
        let matches = candidates.filter { q.isEmpty || $0.name.lowercased().contains(q) }
        shown = [nil] + matches.map(\.id)
        items = [Self.none] + matches.map(\.name)
        return matches.count
    }

    public func name(of id: ObjectID) -> String? { candidates.first { $0.id == id }?.name }
}
