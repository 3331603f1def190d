import CCurses
import Dispatch
import Glibc

/// Restores the terminal and exits when the process is asked to stop.
///
/// Why DispatchSource: a C signal handler may only call async-signal-safe
/// functions, and endwin is not one. Ignoring the signal (SIG_IGN) and
/// observing it through a dispatch source runs the restore on a normal queue.
/// The default queue is `.main`; if the app blocks the main thread in
/// `Screen.readKey()` without draining the main queue, pass a private queue.
/// (In raw mode Ctrl-C arrives as a key, `.ctrl("c")`, not as SIGINT.)
public final class TerminalGuard {
    private var sources: [any DispatchSourceSignal] = []

    public init() {}

    /// - Parameter onSignal: called before the terminal is restored, e.g. to
    ///   flush state; the process then exits with status 128 + signal.
    public func install(
        signals: [Int32] = [SIGINT, SIGTERM, SIGHUP],
        queue: DispatchQueue = .main,
        onSignal: (@Sendable (Int32) -> Void)? = nil
    ) {
        uninstall()
        for signalNumber in signals {
            ccurses_ignore_signal(signalNumber)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler {
                onSignal?(signalNumber)
                ccurses_restore_if_active()
                exit(128 + signalNumber)
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Cancels the sources (signals stay ignored until the process exits).
    public func uninstall() {
        for source in sources { source.cancel() }
        sources.removeAll()
    }

    deinit {
        for source in sources { source.cancel() }
    }
}
