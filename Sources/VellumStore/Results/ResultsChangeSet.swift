import Foundation

/// One batch of changes to a results controller's contents.
///
/// Order of application (UIKit batch-update semantics); applying it to the
/// previous `ResultsSnapshot` yields the new snapshot exactly
/// (`ResultsSnapshot.apply(_:)` implements it):
///
/// 0. `renamedIDs`: IDs replaced in place (a local save made temporary IDs permanent).
/// 1. Object deletes and the sources of moves are removed at their **old**
///    index paths, in descending order.
/// 2. `sectionDeletes` are removed at their **old** section indices, descending
///    (objects still in them go too; they are also reported as deletes or moves).
/// 3. `sectionInserts` are inserted (empty) at their **new** indices, ascending.
/// 4. Object inserts and the destinations of moves are inserted at their **new**
///    index paths, ascending.
/// 5. `objectUpdates` name objects whose state changed but not their position,
///    by **new** index path; they change no structure.
///
/// Semantics: insert/delete when an object appears/disappears or starts/stops
/// matching; move when its position changes (no separate update; a move never
/// has equal old and new index paths — an object that changes section and lands
/// on an equal index path is reported as delete + insert); update when it changed
/// but stays in place. `isReload` (after a context reset) deletes every old section
/// and inserts every new section and object.
public struct ResultsChangeSet: Sendable, Hashable {
    public struct SectionChange: Sendable, Hashable {
        public var index: Int
        /// nil for the section of objects whose section key is nil.
        public var name: String?
    }
    public struct ObjectChange: Sendable, Hashable {
        public var id: ObjectID
        public var indexPath: ResultsIndexPath
    }
    public struct ObjectMove: Sendable, Hashable {
        public var id: ObjectID
        public var from: ResultsIndexPath
        public var to: ResultsIndexPath
    }

    public var isReload = false
    public var renamedIDs: [ObjectID: ObjectID] = [:]
    public var sectionDeletes: [SectionChange] = []
    public var sectionInserts: [SectionChange] = []
    /// Old index paths.
    public var objectDeletes: [ObjectChange] = []
    /// New index paths.
    public var objectInserts: [ObjectChange] = []
    public var objectMoves: [ObjectMove] = []
    /// New index paths.
    public var objectUpdates: [ObjectChange] = []
    /// The flat list's change (all sections concatenated), after `renamedIDs`:
    /// removals at old offsets, insertions at new offsets; moves are associated.
    public var difference: CollectionDifference<ObjectID>

    public init() { difference = CollectionDifference<ObjectID>([])! }

    public var isEmpty: Bool {
        !isReload && renamedIDs.isEmpty && sectionDeletes.isEmpty && sectionInserts.isEmpty && objectDeletes.isEmpty
            && objectInserts.isEmpty && objectMoves.isEmpty && objectUpdates.isEmpty
    }
}
