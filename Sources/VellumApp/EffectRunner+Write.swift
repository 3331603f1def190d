import Foundation
import VellumStore

/// What another writer did to the field or relationship a write was about to change:
/// found by the write-queue block, which then writes nothing (the prompt asks).
struct ChangedUnderneath: Error, Sendable {
    /// The value stored now; nil when the record is gone.
    var theirs: Value?
}

/// A user action written by the container's write queue, off the main thread; the
/// view context receives the save as a merge, like any other writer's. The block
/// records its own undo action, which joins the view's undo stack once the save
/// succeeded, so undo works as before. The loop is not held up: the result comes
/// back later as inputs (the status, a conflict, a reopened editor).
extension EffectRunner {
    struct Written<T: Sendable>: Sendable {
        var value: T
        var undo: UndoStack.Action?
    }

    /// Enqueues `body` (named `action` for undo); on success says `success` and calls
    /// `then` with the block's value, on failure calls `failed` (on the main actor).
    func write<T: Sendable>(_ action: String, success: String,
                            _ body: @escaping @Sendable (ManagedObjectContext) throws -> T,
                            then: @escaping (T) -> Void = { _ in },
                            failed: @escaping (Error) -> Void) {
        let id = UUID()
        // Enqueued now, in key order; the result is awaited by a task on the main actor.
        let (results, delivery) = AsyncStream<Result<Written<T>, Error>>.makeStream(bufferingPolicy: .bufferingNewest(1))
        container.enqueue({ ctx in
            let undo = UndoStack()
            ctx.undoStack = undo
            undo.beginGroup(action)
            let value = try body(ctx)
            return Written(value: value, undo: undo.takeLastAction())
        }, completion: { result in
            delivery.yield(result)
            delivery.finish()
        })
        writes[id] = Task { @MainActor [weak self] in
            var outcome: Result<Written<T>, Error>?
            for await result in results { outcome = result }
            guard let self else { return }
            // The save's merge was queued on the main queue before this resumed: rows are current.
            applyPendingChange()
            switch outcome ?? .failure(CancellationError()) {
            case .success(let written):
                if let undo = written.undo { undoStack.push(undo) }
                send(.store(.saved(success)))
                then(written.value)
            case .failure(let error):
                failed(error)
            }
            writes[id] = nil
            followSelection()
            if writes.isEmpty, let undo = replayAfterWrites {
                replayAfterWrites = nil
                undoRedo(undo: undo)
            }
            redraw()
        }
    }

    /// A failure of a write: a record changed or deleted underneath (the mine/theirs
    /// prompt) or anything else (said in the status).
    func isChangedUnderneath(_ error: Error) -> Bool {
        if error is ChangedUnderneath { return true }
        if case StoreError.conflicts(let cs) = error, cs.allSatisfy({ $0.kind == .version }) { return true }
        return false
    }

    /// Waits until every write started so far has come back (tests; the loop never waits).
    func settle() async {
        while true {
            if let task = writes.values.first { await task.value } else if let work = backgroundWork?.task { await work.value }
            else if let figures = figuresTask { await figures.value; if figuresTask == figures { figuresTask = nil } } else { return }
        }
    }
}
