import Foundation

/// Creating a store file so that a killed or failed creation leaves nothing in
/// the way: the schema is built in a temporary file beside the path, which is
/// linked into place only when complete. link(2) never replaces, so of two
/// processes creating one path exactly one places its file.
extension PersistentStore {
    /// Builds a new store of `model` and puts it at `path`. When another process
    /// placed one first, that is an error with `createOnly`; otherwise its store is used.
    static func createStoreFile(at path: String, model: ManagedObjectModel, options: StoreOptions) throws(StoreError) {
        // A journal left by a deleted database would be replayed into the new file.
        for suffix in ["-wal", "-journal"] where FileManager.default.fileExists(atPath: path + suffix) {
            throw .invalidOperation("\(path)\(suffix) exists without its database \(path) (left by a deleted store?); remove it before creating a store there")
        }
        let folder = (path as NSString).deletingLastPathComponent
        let fd: Int32, temporary: String
        do { (fd, temporary) = try SafeFileWriter.createTemporary(beside: path, tag: "vellum-create", path: path) } catch {
            throw .invalidOperation(error.description)
        }
        defer {
            close(fd)
            for suffix in ["", "-wal", "-shm", "-journal"] { unlink(temporary + suffix) }
        }
        do {
            // Closing the only connection checkpoints the WAL into the file and removes it.
            let connection = try Connection(path: temporary, options: .init(create: true, busyTimeoutMilliseconds: options.busyTimeoutMilliseconds))
            try createSchema(connection, uuid: UUID().uuidString, model: model, layout: options.layout(model), history: options.recordsHistory)
        }
        guard fsync(fd) == 0 else { throw .invalidOperation("\(path): cannot write \(temporary): \(FileWriteError.lastErrno)") }
        do {
            try SafeFileWriter.placeNew(temporary, at: path, path: path)
        } catch .exists(_) {
            if options.createOnly { throw .fileExists(path: path) }
            return  // another process created it meanwhile: open theirs
        } catch {
            throw .invalidOperation(error.description)
        }
        SafeFileWriter.syncFolder(folder.isEmpty ? "." : folder)
    }

    /// True for a symlink whose target does not exist (`fileExists` follows links).
    static func isDanglingLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK && !FileManager.default.fileExists(atPath: path)
    }
}
