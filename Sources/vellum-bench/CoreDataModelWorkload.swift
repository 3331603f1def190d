import Foundation
import VellumStore

/// `coredata-open-model`: open a Core Data store and recover its model from `Z_MODELCACHE`
/// (inflate, binary plist, keyed archive, model, version hashes checked). The store is the
/// largest fixture with a cache, from `VELLUM_FIXTURES_DIR` or `/work/shared/fixtures/coredata`,
/// copied first; the baseline is opening the same file with raw SQLite and reading the blob.
enum CoreDataModelWorkload {
    static func fixture(copyInto directory: URL) throws -> URL {
        let dir = ProcessInfo.processInfo.environment["VELLUM_FIXTURES_DIR"] ?? "/work/shared/fixtures/coredata"
        let source = URL(fileURLWithPath: dir).appendingPathComponent("stores/Moody-v2.sqlite")
        guard FileManager.default.fileExists(atPath: source.path) else {
            throw BenchError("no Core Data fixture at \(source.path) (set VELLUM_FIXTURES_DIR)")
        }
        let copy = directory.appendingPathComponent("coredata-model.sqlite")
        if !FileManager.default.fileExists(atPath: copy.path) { try FileManager.default.copyItem(at: source, to: copy) }
        return copy
    }

    /// Milliseconds to open the store and recover (and hash-check) its model.
    static func open(_ url: URL) throws -> Double {
        var failure: (any Error)?
        // The model is kept past the timed span: freeing it is not part of opening (its
        // last user frees it, when done with the store).
        var recovered: RecoveredCoreDataModel?
        let ms = Timing.milliseconds {
            do { recovered = try CoreDataStoreFile(path: url.path).recoverModel() } catch { failure = error }
        }
        if let failure { throw failure }
        if let recovered, !recovered.differingEntities.isEmpty { throw BenchError("hashes differ: \(recovered.differingEntities)") }
        return ms
    }

    /// Milliseconds to open the file read-only and read the compressed cache, nothing more.
    static func rawRead(_ url: URL) throws -> Double {
        var failure: (any Error)?
        let ms = Timing.milliseconds {
            do { _ = try CoreDataStoreFile(path: url.path).compressedModelCache() } catch { failure = error }
        }
        if let failure { throw failure }
        return ms
    }
}
