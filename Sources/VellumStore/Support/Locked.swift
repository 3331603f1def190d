import Synchronization

/// A `Mutex` (Synchronization) whose hand-offs ThreadSanitizer sees. Mutex takes a
/// contended lock in uninstrumented library code (a futex), so TSan misses that
/// hand-off and reports the protected state as raced; an acquire load on entry and a
/// release add on exit of this lock's own atomic give TSan the edge (a few ns).
package struct Locked<State>: ~Copyable, Sendable {
    private let mutex: Mutex<State>
    private let handOffs = Atomic<Int>(0)

    package init(_ value: consuming sending State) { mutex = Mutex(value) }

    package borrowing func withLock<Result, E: Error>(_ body: (inout sending State) throws(E) -> sending Result) throws(E) -> sending Result {
        try mutex.withLock { (value: inout sending State) throws(E) -> sending Result in
            _ = handOffs.load(ordering: .acquiring)
            defer { handOffs.add(1, ordering: .releasing) }
            return try body(&value)
        }
    }
}
