import Foundation
import VellumStore

/// How a piece of long store work (a summary, a find, a sort…) ended.
enum BackgroundOutcome<Value> {
    case done(Value)
    /// The user stopped it (Esc or Ctrl-C): nothing it would have changed has changed.
    case cancelled
    case failed(any Error)
}

/// The one long piece of store work running off the main thread (`EffectRunner.runInBackground`).
@MainActor
final class BackgroundWork {
    /// Bumped for each piece of work: a result carrying an older one is ignored.
    let generation: Int
    /// What the status bar says runs ("sorting").
    let doing: String
    /// Stops the reader's running statement (from the main thread).
    let interrupter: QueryInterrupter
    /// Reports the work cancelled (the status says so; nothing changed).
    let cancelled: @MainActor () -> Void
    /// What the view context announced while the work ran (a list read meanwhile applies them on top).
    var heard: [ObjectsDidChange] = []
    /// Runs the work and hands its outcome over.
    var task: Task<Void, Never>?
    /// Work that changes something outside the store (an export's file) is reported
    /// cancelled only once it has stopped (and cleaned up), not at the key.
    let reportsWhenStopped: Bool
    /// Esc was pressed for work that `reportsWhenStopped`: its end says how it ended.
    var cancelRequested = false
    /// The list's indexing of its other rows waits while this work runs.
    let pausesIndexing: Bool

    init(generation: Int, doing: String, interrupter: QueryInterrupter, reportsWhenStopped: Bool, pausesIndexing: Bool,
         cancelled: @escaping @MainActor () -> Void) {
        self.generation = generation
        self.doing = doing
        self.interrupter = interrupter
        self.reportsWhenStopped = reportsWhenStopped
        self.pausesIndexing = pausesIndexing
        self.cancelled = cancelled
    }
}

/// Why long work did not start: another is running (one at a time; Esc stops it).
struct WorkRunning: Error, CustomStringConvertible {
    let doing: String
    var description: String { "\(doing) is still running; Esc cancels it" }
}

extension EffectRunner {
    /// Runs `work` — store work that may take long: a filter, sort or grouping read, a
    /// summary, a find, a deletion preview, an export — on a reader of its own (a
    /// `BackgroundContext` with its own connection, `reader`), never on the main thread. The status
    /// says `doing` until it ends; the loop keeps reading keys and redrawing, and live
    /// updates keep coming to the list shown. Its result comes back to the main actor
    /// (`finish`), which reports it as inputs. One piece of work runs at a time: another
    /// started meanwhile is refused (`finish` gets `WorkRunning`). Esc or Ctrl-C
    /// (`cancelWork`) interrupts the reader's statement and reports `.cancelled` at once;
    /// the work's late result is then ignored (generation numbers), as is any result once
    /// the list it was read for was replaced. `reportsWhenStopped` (an export, which writes a
    /// file): a cancel is reported once the work has stopped — as `.cancelled` if it failed
    /// then, else as what it did. The shown list's indexing of its other rows waits meanwhile,
    /// unless the work's result needs every row indexed (`needsWholeList`: a find).
    func runInBackground<T: Sendable>(_ doing: String, reportsWhenStopped: Bool = false, needsWholeList: Bool = false,
                                      _ work: @escaping @Sendable (ManagedObjectContext) throws -> T,
                                      finish: @escaping @MainActor (BackgroundOutcome<T>) -> Void) {
        if let running = backgroundWork {
            finish(.failed(WorkRunning(doing: running.doing)))
            return
        }
        let reader: BackgroundContext
        do { reader = try self.reader ?? container.newBackgroundContext() } catch {
            finish(.failed(error))
            return
        }
        self.reader = reader
        workGeneration += 1
        let generation = workGeneration
        let running = BackgroundWork(generation: generation, doing: doing, interrupter: reader.queryInterrupter,
                                     reportsWhenStopped: reportsWhenStopped, pausesIndexing: !needsWholeList) { finish(.cancelled) }
        backgroundWork = running
        // The work the user waits for goes first: the list's indexing of its other rows
        // (invisible, and dropped anyway if this work replaces the list) waits for it —
        // unless the work's result needs those rows, which would then be read from the start.
        if running.pausesIndexing { rows?.pauseIndexing() }
        send(.result(.workStarted(doing)))
        redraw()
        running.task = Task { [weak self] in
            let outcome: BackgroundOutcome<T>
            do {
                outcome = .done(try await reader.perform { ctx in
                    // The heap the work freed (SQLite's sorter, a grouped pass) goes back to the system.
                    defer { FreedMemory.release() }
                    ctx.reset()   // nothing an earlier piece loaded is taken as current (no merges reach it)
                    return try work(ctx)
                })
            } catch {
                outcome = running.cancelRequested ? .cancelled : .failed(error)
            }
            guard let self, self.backgroundWork?.generation == generation else { return }   // cancelled: ignored
            self.send(.result(.workEnded))
            finish(outcome)   // `backgroundWorkHeard` is still this work's
            if self.backgroundWork?.generation == generation { self.backgroundWork = nil }
            self.redraw()
        }
    }

    /// Esc or Ctrl-C while work runs: its statement is interrupted (again every 20 ms until
    /// the reader gives up, so a statement it starts next stops too), the status says it was
    /// cancelled (unless `quietly`: the question it was for is gone) and nothing changes.
    func cancelWork(quietly: Bool = false) {
        guard let running = backgroundWork, !running.cancelRequested else { return }
        if running.reportsWhenStopped { running.cancelRequested = true } else { backgroundWork = nil }
        reader = nil
        let interrupter = running.interrupter
        let repeating = Task.detached {
            while !Task.isCancelled {
                interrupter.interrupt()
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
        let work = running.task
        Task {
            await work?.value
            repeating.cancel()
        }
        guard !running.reportsWhenStopped else { return }
        send(.result(.workEnded))
        if !quietly { running.cancelled() }
        redraw()
    }

    /// What the view context announced while the work now finishing ran.
    var backgroundWorkHeard: [ObjectsDidChange] { backgroundWork?.heard ?? [] }

    /// Waits until the long work running now (if any) has ended (for tests and `handle`).
    func workSettled() async {
        while let task = backgroundWork?.task { await task.value }
    }
}
