import Foundation
import VellumStore

/// Undo and redo in the browser. Both are saved at once like an edit, and like
/// an edit they never overwrite another writer: when the record changed (or
/// went) since the action, the mine/theirs prompt asks first.
extension EffectRunner {
    func undoRedo(undo: Bool, overwriting: Bool = false) {
        writingLocally = true
        defer { writingLocally = false }
        do {
            let name = undo ? try undoStack.undo(in: context, overwritingConflicts: overwriting)
                            : try undoStack.redo(in: context, overwritingConflicts: overwriting)
            guard let name else { send(.status(undo ? "nothing to undo" : "nothing to redo")); return }
            do { _ = try context.save() } catch {
                undoStack.cancelLastReplay()   // the action stays, to try again
                throw error
            }
            send(.status(undo ? "undid \(name)" : "redid \(name)"))
        } catch StoreError.conflicts(let conflicts) where conflicts.first?.kind == .version {
            context.rollback()
            showReplayConflict(conflicts[0], undo: undo)
        } catch {
            context.rollback()
            send(.status("\(undo ? "undo" : "redo") failed: \(describe(error))", error: true))
        }
        followSelection()
        redraw()
    }

    /// The prompt for an undo or redo that met another writer's change: the first
    /// field they changed, what the undo would write (mine) and what is stored (theirs).
    func showReplayConflict(_ c: MergeConflict, undo: Bool) {
        let stored = c.persistedSnapshot ?? [:]
        let changed = c.cachedSnapshot.keys.sorted().first { stored[$0] != c.cachedSnapshot[$0] }
        let key = changed ?? c.objectSnapshot.keys.sorted().first { stored[$0] != c.objectSnapshot[$0] }
        send(.result(.conflictFound(AppState.Conflict(
            key: key ?? "a relationship", mine: key.flatMap { c.objectSnapshot[$0] }.map(Renderer.cellText) ?? "as before",
            theirs: key.flatMap { stored[$0] }.map(Renderer.cellText), deleted: c.persistedSnapshot == nil,
            author: container.lastRemoteChange?.author, replay: undo ? .undo : .redo))))
    }

    /// Mine: undo or redo anyway, over their change. Theirs: keep it and drop the action.
    func resolveReplayConflict(keepMine: Bool, _ replay: AppState.Conflict.Replay) {
        let undo = replay == .undo
        guard keepMine else {
            let name = (undo ? undoStack.undoActionName : undoStack.redoActionName) ?? "the action"
            if undo { undoStack.discardLastAction() } else { undoStack.discardNextRedo() }
            closeReplayConflict()
            send(.status("kept theirs; dropped the \(undo ? "undo" : "redo") of \(name)"))
            return
        }
        if state.conflict?.deleted == true {
            send(.status("the record was deleted by another writer: t drops the \(undo ? "undo" : "redo"), Esc decides later", error: true))
            return
        }
        closeReplayConflict()
        undoRedo(undo: undo, overwriting: true)
    }

    func closeReplayConflict() {
        send(.result(.backToBrowse))
        redraw()
    }
}
