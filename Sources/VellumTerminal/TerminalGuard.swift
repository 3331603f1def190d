import CCurses
import Dispatch
import Glibc

/// Restores the terminal and exits when the process is asked to stop.
///
/// The signals are observed by a `SignalObserver` (endwin is not
/// async-signal-safe, so the restore runs on a normal queue). The default
/// queue is `.main`; if the app blocks the main thread in `Screen.readKey()`
/// without draining the main queue, pass a private queue.
/// (In raw mode Ctrl-C arrives as a key, `.ctrl("c")`, not as SIGINT.)
public final class TerminalGuard {
    private var observer: SignalObserver?

    public init() {}

    /// - Parameter onSignal: called before the terminal is restored, e.g. to
    ///   flush state; the process then exits with status 128 + signal.
    public func install(
        signals: [Int32] = [SIGINT, SIGTERM, SIGHUP],
        queue: DispatchQueue = .main,
        onSignal: (@Sendable (Int32) -> Void)? = nil
    ) {
        uninstall()
        observer = SignalObserver(signals: signals, queue: queue) { signalNumber in
            onSignal?(signalNumber)
            ccurses_restore_if_active()
            exit(128 + signalNumber)
        }
    }

    /// Cancels the sources (signals stay ignored until the process exits).
    public func uninstall() {
        observer?.cancel()
        observer = nil
    }
}
