#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Wakes the remote-change monitor when the database or its WAL file is written,
/// using inotify on their folder, so an idle monitor costs no CPU. The monitor
/// keeps a slow poll as a safety net (files on network mounts send no events).
// Unchecked: Dispatch does not mark its sources Sendable; this one is only cancelled,
// which Dispatch allows from any thread, and its handlers run on the given queue.
final class FileChangeWatcher: @unchecked Sendable {
    private let fd: Int32
    private let source: DispatchSourceRead
    private let names: Set<String>

    /// Watches the files named `names` in `directory`; calls `onChange` on `queue`.
    init?(directory: String, names: Set<String>, queue: DispatchQueue, onChange: @escaping @Sendable () -> Void) {
        #if os(Linux)
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        let mask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_MOVED_TO)
        guard inotify_add_watch(fd, directory, mask) >= 0 else { close(fd); return nil }
        self.fd = fd
        self.names = names
        source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        let watched = names
        source.setEventHandler {
            if FileChangeWatcher.drain(fd, names: watched) { onChange() }
        }
        source.setCancelHandler { close(fd) }
        source.resume()
        #else
        return nil
        #endif
    }

    deinit { source.cancel() }

    func cancel() { source.cancel() }

    /// Reads all pending events; true if one concerns a watched file.
    private static func drain(_ fd: Int32, names: Set<String>) -> Bool {
        #if os(Linux)
        var relevant = false
        let size = 4096
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let n = read(fd, buffer, size)
            if n <= 0 { break }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= n {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let nameLength = Int(event.len)
                if nameLength > 0 {
                    let namePointer = buffer.advanced(by: offset + MemoryLayout<inotify_event>.size).assumingMemoryBound(to: CChar.self)
                    if names.contains(String(cString: namePointer)) { relevant = true }
                }
                offset += MemoryLayout<inotify_event>.size + nameLength
            }
        }
        return relevant
        #else
        return true
        #endif
    }
}
