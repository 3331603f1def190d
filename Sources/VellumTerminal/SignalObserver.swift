import CCurses
import Dispatch

/// Observes signals through dispatch sources: each signal is ignored (SIG_IGN),
/// so its default action never runs, and `handler` runs on `queue`.
///
/// Why not a C signal handler: it may only call async-signal-safe functions, and
/// what the handlers here do (restore the terminal, resume a task) is not.
/// The browser's `TerminalGuard` and `vellum watch` both stop through this, and the
/// browser's loop repaints after SIGCONT through it: no other code makes signal
/// sources or handlers (`SignalHandlingTests`).
public final class SignalObserver {
    private var sources: [any DispatchSourceSignal] = []

    public init(signals: [Int32], queue: DispatchQueue, handler: @escaping @Sendable (Int32) -> Void) {
        for signalNumber in signals {
            ccurses_ignore_signal(signalNumber)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler { handler(signalNumber) }
            source.resume()
            sources.append(source)
        }
    }

    /// Stops observing (the signals stay ignored until the process exits).
    public func cancel() {
        for source in sources { source.cancel() }
        sources.removeAll()
    }

    deinit { cancel() }
}
