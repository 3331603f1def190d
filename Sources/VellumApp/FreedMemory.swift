import Glibc

/// Gives freed heap back to the system. glibc keeps what a large list's index freed
/// (tens of megabytes at a million rows) for later allocations, so without this the
/// resident size only grows with each sort, filter or grouping. `malloc_trim` is not in
/// the Glibc module; it is looked up on each call (a list is replaced rarely). Run off the
/// main thread, after a replaced list's index is freed (`ResultsController.discard`).
enum FreedMemory {
    static func release() {
        guard let symbol = dlsym(nil, "malloc_trim") else { return }
        typealias Trim = @convention(c) (Int) -> Int32
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
    }
}
