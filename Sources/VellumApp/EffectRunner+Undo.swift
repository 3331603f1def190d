import Foundation
import VellumStore

/// Undo and redo in the browser. Like every other browser write they are saved by
/// the container's write queue, off the main thread (the view receives the merge),
/// and like an edit they never overwrite another writer: when the record changed
/// (or went) since the action, the mine/theirs prompt asks first.
extension EffectRunner {
    func undoRedo(undo: Bool, overwriting: Bool = false) {
        let verb = undo ? "undo" : "redo"
        // A save still in flight has not put its action on the stack yet: the key waits for it
        // (`write` runs it when the last write is back), instead of saying there is nothing.
        if !writes.isEmpty {
            replayAfterWrites = undo
            send(.status("\(verb) waits for the save in progress…"))
            return
        }
        // Taken off the stack while the queue replays it; back on the right side when it comes back.
        guard let action = undoStack.takeForReplay(undo: undo) else { send(.status("nothing to \(verb)")); return }
        send(.status("\(undo ? "undoing" : "redoing") \(action.name)…"))
        write(action.name, success: "\(undo ? "undid" : "redid") \(action.name)", { ctx in
            try UndoStack.replay(action, undo: undo, in: ctx, overwritingConflicts: overwriting)
        }, then: { [weak self] moved in
            self?.undoStack.pushReplayed(moved, undone: undo)
        }, failed: { [weak self] error in
            guard let self else { return }
            undoStack.returnAction(action, undo: undo)   // the action stays, to try again
            if case StoreError.conflicts(let conflicts) = error, conflicts.first?.kind == .version {
                showReplayConflict(conflicts[0], undo: undo)
            } else {
                send(.status("\(verb) failed: \(describe(error))", error: true))
            }
        })
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
