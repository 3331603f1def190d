import Foundation

/// A results controller's contents at one moment: sections with names and object IDs.
/// `ResultsChangeSet.apply(to:)` turns the previous snapshot into the next one.
public struct ResultsSnapshot: Sendable, Hashable {
    public var sections: [ResultsSection]

    public init(sections: [ResultsSection] = []) { self.sections = sections }

    /// All object IDs, section by section.
    public var objectIDs: [ObjectID] { sections.flatMap(\.objectIDs) }

    /// This snapshot with `changes` applied (see `ResultsChangeSet` for the order).
    public func applying(_ changes: ResultsChangeSet) throws -> ResultsSnapshot {
        var s = self
        try s.apply(changes)
        return s
    }

    /// Applies a change set in its documented order; throws when it does not fit.
    public mutating func apply(_ changes: ResultsChangeSet) throws {
        // 0. Renamed IDs (temporary → permanent after a save) in place.
        if !changes.renamedIDs.isEmpty {
            for s in sections.indices {
                for i in sections[s].objectIDs.indices {
                    if let n = changes.renamedIDs[sections[s].objectIDs[i]] { sections[s].objectIDs[i] = n }
                }
            }
        }
        func bad(_ what: String) -> StoreError { .invalidOperation("change set does not fit the snapshot: \(what)") }
        // 1. Remove deleted objects and move sources at old index paths, last first.
        let removals = (changes.objectDeletes.map { $0.indexPath } + changes.objectMoves.map { $0.from }).sorted(by: >)
        for p in removals {
            guard sections.indices.contains(p.section), sections[p.section].objectIDs.indices.contains(p.item) else { throw bad("remove \(p)") }
            sections[p.section].objectIDs.remove(at: p.item)
        }
        // 2. Delete sections at old indices, last first (with any objects left in them).
        for i in changes.sectionDeletes.map(\.index).sorted(by: >) {
            guard sections.indices.contains(i) else { throw bad("delete section \(i)") }
            sections.remove(at: i)
        }
        // 3. Insert sections at new indices, first first.
        for change in changes.sectionInserts.sorted(by: { $0.index < $1.index }) {
            guard change.index <= sections.count else { throw bad("insert section \(change.index)") }
            sections.insert(ResultsSection(name: change.name, objectIDs: []), at: change.index)
        }
        // 4. Insert inserted objects and move destinations at new index paths, first first.
        let insertions = (changes.objectInserts.map { ($0.indexPath, $0.id) } + changes.objectMoves.map { ($0.to, $0.id) })
            .sorted { $0.0 < $1.0 }
        for (p, id) in insertions {
            guard sections.indices.contains(p.section), p.item <= sections[p.section].objectIDs.count else { throw bad("insert \(p)") }
            sections[p.section].objectIDs.insert(id, at: p.item)
        }
        // 5. Updates refer to new index paths and change no structure.
        for u in changes.objectUpdates {
            guard sections.indices.contains(u.indexPath.section), sections[u.indexPath.section].objectIDs.indices.contains(u.indexPath.item),
                  sections[u.indexPath.section].objectIDs[u.indexPath.item] == u.id else { throw bad("update \(u.indexPath)") }
        }
    }
}
