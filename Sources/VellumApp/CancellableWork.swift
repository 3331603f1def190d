import VellumStore

/// How a piece of work the user could stop with Esc or Ctrl-C ended.
enum CancellableOutcome<Value> {
    case done(Value)
    /// The user stopped it: nothing it would have changed has changed.
    case cancelled
    case failed(any Error)
}

extension EffectRunner {
    /// Runs store work that may take long (a summary, a find, a grouping, an export)
    /// the way a filter runs: the status says `doing`, Esc or Ctrl-C interrupts its SQL.
    /// `interrupting`: the queries to stop, when the work reads through a context of
    /// its own (else the view context's).
    /// Afterwards the heap the work freed (SQLite's sorter, a grouped pass) is given back to
    /// the system (`FreedMemory`), so resident memory does not keep what a summary used.
    func cancellable<Value>(_ doing: String, interrupting: QueryInterrupter? = nil, _ work: () throws -> Value) -> CancellableOutcome<Value> {
        defer { FreedMemory.release() }
        do {
            return .done(try runCancellably(doing, interrupting: interrupting, work))
        } catch {
            return (cancelKeys?.stop() ?? false) ? .cancelled : .failed(error)
        }
    }
}
