import Foundation

/// Undo and redo for a context, grouped per user action. Changes are recorded
/// by object ID (resolved through `PersistentStore.permanentID(for:)`), so an
/// action can be undone after it was saved: undoing applies the inverse change
/// as a new pending change, which the caller saves like any edit.
///
/// Undo and redo never overwrite another writer silently: before changing
/// anything they check that the objects still hold what the action left (see
/// `UndoReplayCheck`) and otherwise throw `StoreError.conflicts`, leaving the
/// action where it was. Undoing a delete restores the same object (same key and
/// ID URI) with its relationships, and whatever its delete rules cascaded to.
public final class UndoStack {
    enum Change: Sendable {
        case set(ObjectID, key: String, old: Value, new: Value)
        case relate(ObjectID, key: String, old: [ObjectID], new: [ObjectID])
        /// An object created (or restored) as the snapshot describes.
        case insert(ObjectSnapshot)
        /// An object deleted; the snapshot is how it was just before.
        case delete(ObjectSnapshot)

        var objectID: ObjectID {
            switch self {
            case .set(let id, _, _, _), .relate(let id, _, _, _): return id
            case .insert(let s), .delete(let s): return s.objectID
            }
        }
    }

    struct Group: Sendable {
        var name: String
        var changes: [Change]
    }

    private var undoGroups: [Group] = []
    private var redoGroups: [Group] = []
    private var open: Group?
    /// True while undo/redo applies changes, so they are not recorded as new actions.
    private var replaying = false
    /// The action the last undo or redo moved, and from which side, until a new action is recorded.
    private var lastReplay: (wasUndo: Bool, group: Group)?
    public var levelsOfUndo = 100

    public init() {}

    public var canUndo: Bool { !undoGroups.isEmpty || !(open?.changes.isEmpty ?? true) }
    public var canRedo: Bool { !redoGroups.isEmpty }
    public var undoActionName: String? { undoGroups.last?.name }
    public var redoActionName: String? { redoGroups.last?.name }
    /// False while undo or redo replays changes (the context then records nothing).
    var isRecording: Bool { !replaying }

    /// Starts a group; changes until `endGroup()` undo together.
    public func beginGroup(_ name: String) {
        endGroup()
        open = Group(name: name, changes: [])
    }

    public func endGroup() {
        guard let g = open else { return }
        open = nil
        guard !g.changes.isEmpty else { return }
        undoGroups.append(g)
        if undoGroups.count > levelsOfUndo { undoGroups.removeFirst() }
    }

    func record(_ change: Change) {
        guard !replaying else { return }
        redoGroups.removeAll()
        lastReplay = nil
        if open == nil {
            // A change outside any group is its own action.
            undoGroups.append(Group(name: "Change", changes: [change]))
            if undoGroups.count > levelsOfUndo { undoGroups.removeFirst() }
        } else {
            open!.changes.append(change)
        }
    }

    /// Forgets the last action without applying anything (its save failed and the
    /// context was rolled back, or the user kept another writer's version over it).
    public func discardLastAction() {
        endGroup()
        _ = undoGroups.popLast()
    }

    /// Forgets the action `redo` would re-apply (the user kept another writer's version over it).
    public func discardNextRedo() {
        _ = redoGroups.popLast()
    }

    /// Reverts the last action in `context` (as pending changes). Returns its name.
    /// Throws `StoreError.conflicts` when another writer changed or deleted what the
    /// action wrote, unless `overwritingConflicts` (the user chose to overwrite
    /// theirs). On any error the action stays to undo; roll the context back.
    @discardableResult
    public func undo(in context: ManagedObjectContext, overwritingConflicts: Bool = false) throws -> String? {
        endGroup()
        guard let g = undoGroups.last else { return nil }
        let inverse = try apply(g.changes.reversed().map(Self.inverse), in: context, overwriting: overwritingConflicts)
        undoGroups.removeLast()
        redoGroups.append(Group(name: g.name, changes: inverse.reversed().map(Self.inverse)))
        lastReplay = (true, g)
        return g.name
    }

    /// Re-applies the last undone action. Returns its name. Conflicts as for `undo`.
    @discardableResult
    public func redo(in context: ManagedObjectContext, overwritingConflicts: Bool = false) throws -> String? {
        guard let g = redoGroups.last else { return nil }
        let applied = try apply(g.changes, in: context, overwriting: overwritingConflicts)
        redoGroups.removeLast()
        undoGroups.append(Group(name: g.name, changes: applied))
        lastReplay = (false, g)
        return g.name
    }

    /// Puts back the action the last undo or redo moved, when saving what it applied
    /// failed (the caller rolled the context back): it can be tried again.
    public func cancelLastReplay() {
        guard let (wasUndo, g) = lastReplay else { return }
        lastReplay = nil
        if wasUndo {
            _ = redoGroups.popLast()
            undoGroups.append(g)
        } else {
            _ = undoGroups.popLast()
            redoGroups.append(g)
        }
    }

    static func inverse(_ c: Change) -> Change {
        switch c {
        case .set(let id, let key, let old, let new): return .set(id, key: key, old: new, new: old)
        case .relate(let id, let key, let old, let new): return .relate(id, key: key, old: new, new: old)
        case .insert(let snapshot): return .delete(snapshot)
        case .delete(let snapshot): return .insert(snapshot)
        }
    }

    /// Applies changes; returns them with IDs updated (an object inserted anew,
    /// never saved before, gets a new temporary ID) and deletes as they happened.
    private func apply(_ changes: [Change], in context: ManagedObjectContext, overwriting: Bool) throws -> [Change] {
        replaying = true
        defer { replaying = false }
        var renamed: [ObjectID: ObjectID] = [:]
        func resolve(_ id: ObjectID) -> ObjectID {
            let mapped = renamed[id] ?? id
            return context.store.permanentID(for: mapped) ?? mapped
        }
        try UndoReplayCheck(context: context, changes: changes, resolve: resolve).run(overwriting: overwriting)
        // Objects to restore exist before any relationship is set: a cascade's
        // children and their parent come back together, then relate to each other.
        var restored: [ObjectID: ManagedObject] = [:]
        for case .insert(let snapshot) in changes {
            var s = snapshot
            s.objectID = resolve(s.objectID)
            let o = try context.restoredObject(s)
            if o.objectID != snapshot.objectID { renamed[snapshot.objectID] = o.objectID }
            restored[snapshot.objectID] = o
        }
        var applied: [Change] = []
        for change in changes {
            switch change {
            case .set(let id, let key, let old, let new):
                let o = try context.existingObject(with: resolve(id))
                try o.setValue(new, forKey: key)
                applied.append(.set(o.objectID, key: key, old: old, new: new))
            case .relate(let id, let key, let old, let new):
                let o = try context.existingObject(with: resolve(id))
                let targets = try new.map { try context.existingObject(with: resolve($0)) }
                if o.entity.relationship(named: key)?.isToMany == true { try o.setToMany(key, targets) } else { try o.setToOne(key, targets.first) }
                applied.append(.relate(o.objectID, key: key, old: old.map(resolve), new: targets.map(\.objectID)))
            case .insert(let snapshot):
                let o = restored[snapshot.objectID]!
                var s = snapshot
                s.objectID = o.objectID
                s.relationships = s.relationships.mapValues { $0.map(resolve) }
                try context.restoreRelationships(of: o, from: s)
                applied.append(.insert(s))   // completed below, once every object is back
            case .delete(let snapshot):
                let id = resolve(snapshot.objectID)
                // Gone already: deleted by a delete rule earlier in this group, or by another writer.
                guard let o = try context.existingObjectIfPresent(id) else {
                    applied.append(.delete(snapshot))
                    continue
                }
                let now = try context.snapshot(of: o)
                try context.delete(o)
                applied.append(.delete(now))
            }
        }
        // Restored objects as they now are, relationships set from both sides:
        // what the next replay of this action expects to find.
        for (i, change) in applied.enumerated() {
            if case .insert(let s) = change, let o = context.registeredObject(for: s.objectID), !o.isDeleted {
                applied[i] = .insert(try context.snapshot(of: o))
            }
        }
        return applied
    }
}

extension UndoStack {
    /// One recorded user action as a value, so an action recorded by one context
    /// (a write-queue block's) can be kept on another stack (the view's) and undone there.
    public struct Action: Sendable {
        fileprivate let group: Group
        public var name: String { group.name }
    }

    /// Removes and returns the last action (closing an open group first).
    public func takeLastAction() -> Action? {
        endGroup()
        return undoGroups.popLast().map(Action.init)
    }

    /// Records `action` as the newest one, as if its changes were made here.
    public func push(_ action: Action) {
        endGroup()
        redoGroups.removeAll()
        lastReplay = nil
        undoGroups.append(action.group)
        if undoGroups.count > levelsOfUndo { undoGroups.removeFirst() }
    }
}

extension UndoStack {
    /// Takes out the action `undo` (or `redo`) would replay, to replay it in another
    /// context (the write queue's) with `replay(_:undo:in:overwritingConflicts:)`.
    /// Give it back with `returnAction` when that fails, or `pushReplayed` when it was saved.
    public func takeForReplay(undo: Bool) -> Action? {
        endGroup()
        lastReplay = nil
        return (undo ? undoGroups.popLast() : redoGroups.popLast()).map(Action.init)
    }

    /// Puts back an action taken out by `takeForReplay` whose replay failed: it can be tried again.
    public func returnAction(_ action: Action, undo: Bool) {
        if undo { undoGroups.append(action.group) } else { redoGroups.append(action.group) }
    }

    /// Records the action a replay elsewhere moved: an undone action becomes the next redo,
    /// a redone one the newest undo.
    public func pushReplayed(_ action: Action, undone: Bool) {
        if undone { redoGroups.append(action.group) } else { undoGroups.append(action.group) }
    }

    /// Undoes (or redoes) `action` in `context` as pending changes, which the caller saves;
    /// returns the action for the other side. Conflicts as for `undo(in:)`.
    public static func replay(_ action: Action, undo: Bool, in context: ManagedObjectContext,
                              overwritingConflicts: Bool = false) throws(StoreError) -> Action {
        let stack = UndoStack()
        let previous = context.undoStack
        context.undoStack = stack
        defer { context.undoStack = previous }
        if undo { stack.undoGroups = [action.group] } else { stack.redoGroups = [action.group] }
        do {
            _ = undo ? try stack.undo(in: context, overwritingConflicts: overwritingConflicts)
                     : try stack.redo(in: context, overwritingConflicts: overwritingConflicts)
        } catch let error as StoreError {
            throw error
        } catch {
            throw .invalidOperation("the \(undo ? "undo" : "redo") of \(action.name) failed: \(ErrorText.describe(error))")
        }
        guard let moved = undo ? stack.redoGroups.last : stack.undoGroups.last else {
            throw .invalidOperation("the \(undo ? "undo" : "redo") of \(action.name) moved no action")
        }
        return Action(group: moved)
    }
}
