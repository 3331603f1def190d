import Foundation

/// A consistent copy of a store beside it, made while the caller holds the write
/// lock: another connection writes it with `VACUUM INTO` (a read of the last
/// commit) to a temporary name, linked into place only when complete. An existing
/// file is never overwritten: the name gets `-2`, `-3`, … instead.
enum StoreBackup {
    static func copy(_ path: String, suffix: String, options: MigrationOptions) throws(StoreError) -> String {
        var target = "\(path).\(suffix)"
        var n = 1
        while FileManager.default.fileExists(atPath: target) {
            n += 1
            target = "\(path).\(suffix)-\(n)"
        }
        let partial = "\(target).partial-\(getpid())"
        do {
            let reader = try Connection(path: path, options: .init(readOnly: true, busyTimeoutMilliseconds: options.busyTimeoutMilliseconds))
            try reader.run("VACUUM INTO ?", [.string(partial)])
        } catch {
            unlink(partial)
            throw .invalidOperation("\(path): the backup copy \(target) could not be written (\(ErrorText.describe(error))); nothing was changed")
        }
        // link(2) fails rather than replace a file that appeared meanwhile.
        guard link(partial, target) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(partial)
            throw .invalidOperation("\(path): the backup copy \(target) could not be put in place (\(reason)); nothing was changed")
        }
        unlink(partial)
        return target
    }
}
