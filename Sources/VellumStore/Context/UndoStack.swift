import Foundation

/// Undo and redo for a context, grouped per user action. Changes are recorded
/// by object ID (resolved through `PersistentStore.permanentID(for:)`), so an
/// action can be undone after it was saved: undoing applies the inverse change
/// as a new pending change, which the caller saves like any edit.
public final class UndoStack {
    enum Change {
        case set(ObjectID, key: String, old: Value, new: Value)
        case relate(ObjectID, key: String, old: [ObjectID], new: [ObjectID])
        case insert(ObjectID, entity: String, values: [String: Value])
        case delete(ObjectID, entity: String, values: [String: Value])
    }

    struct Group {
        var name: String
        var changes: [Change]
    }

    private var undoGroups: [Group] = []
    private var redoGroups: [Group] = []
    private var open: Group?
    /// True while undo/redo applies changes, so they are not recorded as new actions.
    private var replaying = false
    public var levelsOfUndo = 100

    public init() {}

    public var canUndo: Bool { !undoGroups.isEmpty || !(open?.changes.isEmpty ?? true) }
    public var canRedo: Bool { !redoGroups.isEmpty }
    public var undoActionName: String? { undoGroups.last?.name }
    public var redoActionName: String? { redoGroups.last?.name }

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
        if open == nil {
            // A change outside any group is its own action.
            undoGroups.append(Group(name: "Change", changes: [change]))
            if undoGroups.count > levelsOfUndo { undoGroups.removeFirst() }
        } else {
            open!.changes.append(change)
        }
    }

    /// Forgets the last action without applying anything (its save failed and the
    /// context was rolled back).
    public func discardLastAction() {
        endGroup()
        _ = undoGroups.popLast()
    }

    public func discardNextRedo() { _ = redoGroups.popLast() }

    /// Reverts the last action in `context` (as pending changes). Returns its name.
    @discardableResult
    public func undo(in context: ManagedObjectContext, overwritingConflicts: Bool = false) throws -> String? {
        endGroup()
        guard let g = undoGroups.popLast() else { return nil }
        let inverse = try apply(g.changes.reversed().map(Self.inverse), in: context)
        redoGroups.append(Group(name: g.name, changes: inverse.reversed().map(Self.inverse)))
        return g.name
    }

    /// Re-applies the last undone action. Returns its name.
    @discardableResult
    public func redo(in context: ManagedObjectContext, overwritingConflicts: Bool = false) throws -> String? {
        guard let g = redoGroups.popLast() else { return nil }
        let applied = try apply(g.changes, in: context)
        undoGroups.append(Group(name: g.name, changes: applied))
        return g.name
    }

    static func inverse(_ c: Change) -> Change {
        switch c {
        case .set(let id, let key, let old, let new): return .set(id, key: key, old: new, new: old)
        case .relate(let id, let key, let old, let new): return .relate(id, key: key, old: new, new: old)
        case .insert(let id, let entity, let values): return .delete(id, entity: entity, values: values)
        case .delete(let id, let entity, let values): return .insert(id, entity: entity, values: values)
        }
    }

    /// Applies changes; returns them with IDs updated (a re-inserted object gets a new ID).
    private func apply(_ changes: [Change], in context: ManagedObjectContext) throws -> [Change] {
        replaying = true
        defer { replaying = false }
        var renamed: [ObjectID: ObjectID] = [:]
        func resolve(_ id: ObjectID) -> ObjectID {
            let mapped = renamed[id] ?? id
            return context.store.permanentID(for: mapped) ?? mapped
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
                applied.append(.relate(o.objectID, key: key, old: old, new: targets.map(\.objectID)))
            case .insert(let id, let entity, let values):
                let o = try context.insert(entity, values: values)
                renamed[id] = o.objectID
                applied.append(.insert(o.objectID, entity: entity, values: values))
            case .delete(let id, let entity, let values):
                let o = try context.existingObject(with: resolve(id))
                try context.delete(o)
                applied.append(.delete(o.objectID, entity: entity, values: values))
            }
        }
        return applied
    }
}
