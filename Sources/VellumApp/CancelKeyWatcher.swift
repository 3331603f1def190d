import Foundation
import VellumStore

/// While a query blocks the main thread (which then reads no keys), watches the
/// terminal for Esc or Ctrl-C and asks the store to stop the query. Other keys
/// typed meanwhile are dropped: they were aimed at a screen that is about to change.
final class CancelKeyWatcher: Sendable {
    private let fd: Int32
    /// Shared by the browser's thread and the watching thread.
    private let state = Locked(State())
    private struct State {
        var stopRequested = false
        var sawCancel = false
        /// Signalled when the watching thread ends.
        var finished: DispatchSemaphore?
    }

    init(fd: Int32 = STDIN_FILENO) { self.fd = fd }

    /// Starts watching; `interrupter` is called on Esc or Ctrl-C (and again every
    /// 20 ms until `stop`, so a statement started after the key is stopped too).
    func start(interrupting interrupter: QueryInterrupter) {
        let done = DispatchSemaphore(value: 0)
        state.withLock { $0 = State(finished: done) }
        let thread = Thread { [self] in
            watch(interrupter)
            done.signal()
        }
        thread.start()
    }

    /// Stops watching (waits for the watcher, so it reads no key meant for the
    /// browser); true when Esc or Ctrl-C was pressed.
    func stop() -> Bool {
        let finished = state.withLock { s in
            s.stopRequested = true
            return s.finished
        }
        finished?.wait()
        return state.withLock { s in
            s.finished = nil
            return s.sawCancel
        }
    }

    private func watch(_ interrupter: QueryInterrupter) {
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let (stopping, cancelled) = state.withLock { ($0.stopRequested, $0.sawCancel) }
            if stopping { return }
            if cancelled { interrupter.interrupt() }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 20) > 0 else { continue }
            let n = read(fd, &buffer, buffer.count)
            if n > 0, Self.isCancel(buffer[0..<n]) {
                state.withLock { $0.sawCancel = true }
                interrupter.interrupt()
            }
        }
    }

    /// Ctrl-C, or an Esc that does not start an escape sequence (arrow keys send ESC [ A).
    static func isCancel(_ bytes: ArraySlice<UInt8>) -> Bool {
        for i in bytes.indices {
            if bytes[i] == 0x03 { return true }
            if bytes[i] == 0x1B {
                let next = bytes.index(after: i)
                if next == bytes.endIndex || (bytes[next] != UInt8(ascii: "[") && bytes[next] != UInt8(ascii: "O")) { return true }
            }
        }
        return false
    }
}
