import VellumStore

/// A picker's candidates and what its search shows, as one value of the state: the
/// names on screen and the records they stand for cannot drift apart. A to-one picker
/// offers ∅ (none) and one record; a membership picker (a to-many) a set of them.
public struct PickerList: Sendable, Equatable {
    public struct Candidate: Sendable, Equatable {
        public var id: ObjectID
        public var name: String
        public init(id: ObjectID, name: String) { self.id = id; self.name = name }
    }

    public private(set) var candidates: [Candidate] = []
    /// The records shown, in order: for a to-one ∅ (nil, clears it) first, then the matches.
    public private(set) var shown: [ObjectID?] = [nil]
    /// Their names as listed.
    public private(set) var items: [String] = [PickerList.none]
    /// The membership picker's chosen records (nil: a to-one picker).
    public private(set) var chosen: Set<ObjectID>?
    /// The members when it opened, to count what changes.
    public let initiallyChosen: Set<ObjectID>
    static let none = "∅ (none)"

    public init(candidates: [Candidate] = [], chosen: Set<ObjectID>? = nil) {
        self.candidates = candidates
        self.chosen = chosen
        initiallyChosen = chosen ?? []
        search("")
    }

    public var isMembership: Bool { chosen != nil }

    /// Shows the candidates whose name contains `query` (any case), after ∅ in a
    /// to-one picker; returns how many match.
    @discardableResult
    public mutating func search(_ query: String) -> Int {
        let q = query.lowercased()
        let matches = candidates.filter { q.isEmpty || $0.name.lowercased().contains(q) }
        shown = (isMembership ? [] : [nil]) + matches.map(\.id)
        items = (isMembership ? [] : [Self.none]) + matches.map(\.name)
        return matches.count
    }

    /// Where the first match is listed (after ∅ in a to-one picker).
    var firstMatch: Int { isMembership ? 0 : 1 }

    /// A membership picker: the record in or out of the chosen set.
    public mutating func toggle(_ id: ObjectID) {
        guard var set = chosen else { return }
        if set.remove(id) == nil { set.insert(id) }
        chosen = set
    }

    /// `31 chosen (+2 −1)`: the members now and what changed since the picker opened.
    public var tally: String {
        guard let chosen else { return "" }
        let added = chosen.subtracting(initiallyChosen).count, removed = initiallyChosen.subtracting(chosen).count
        let change = added + removed == 0 ? "" : " (" + [added > 0 ? "+\(added)" : nil, removed > 0 ? "−\(removed)" : nil].compactMap { $0 }.joined(separator: " ") + ")"
        return "\(chosen.count) chosen\(change)"
    }

    public func name(of id: ObjectID) -> String? { candidates.first { $0.id == id }?.name }
}
