import Foundation
import Testing
import VellumStore
@testable import vellum

/// "Read-only use" (torture run): reading commands open a store the user cannot
/// write read-only (saying so), and never leave `-wal`/`-shm` files behind that
/// would block the owner's next write. Another user is simulated with `setpriv`
/// (the tests run as root): the store belongs to uid 1000, the reader is `nobody`.
@Suite("read-only use", .serialized)
struct ReadOnlyUseTests {
    static let owner = "1000"
    static let reader = "65534"

    /// `vellum ARGS` as user `uid`.
    static func run(as uid: String, _ arguments: [String]) throws -> VellumBinary.Output {
        try VellumBinary.run(executable: URL(fileURLWithPath: "/usr/bin/setpriv"),
                             ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", VellumBinary.url.path] + arguments)
    }

    /// A shop store owned by uid 1000 (mode 0644) in a folder everyone may write (1777).
    static func ownersStore(_ dir: TempDir) throws -> String {
        let path = dir.path("shop.vellum")
        try CLIFixtures.makeShop(at: path)
        chmod(dir.url.path, 0o1777)
        chown(path, 1000, 1000)
        chmod(path, 0o644)
        return path
    }

    static func sideFiles(_ path: String) -> [String] {
        ["-wal", "-shm"].filter { FileManager.default.fileExists(atPath: path + $0) }
    }

    @Test func anotherUsersReaderLeavesNoFilesThatBlockTheOwner() throws {
        let dir = TempDir()
        let path = try Self.ownersStore(dir)
        let model = try Self.run(as: Self.reader, ["model", path])
        #expect(model.status == 0, "\(model.stderr)")
        #expect(model.stdout.contains("entity Product"))
        let query = try Self.run(as: Self.reader, ["query", path, "Product", "--format", "csv"])
        #expect(query.status == 0, "\(query.stderr)")
        #expect(query.stdout.contains("apple"))
        #expect(query.stderr.contains("is not writable (file or folder); opened read-only"), "\(query.stderr)")
        #expect(Self.sideFiles(path).isEmpty, "the reader left \(Self.sideFiles(path))")
        let write = try Self.run(as: Self.owner, ["insert", path, "Product", "name=kiwi"])
        #expect(write.status == 0, "the owner cannot write after the reader: \(write.stderr)")
        #expect(try sqliteScalar(path, "SELECT count(*) FROM Product WHERE name = 'kiwi'") == "1")
    }

    @Test func readOnlyFileAndFolderAreRead() throws {
        let dir = TempDir()
        let path = try Self.ownersStore(dir)
        chmod(path, 0o444)
        chmod(dir.url.path, 0o555)
        defer { chmod(dir.url.path, 0o755) }
        let query = try Self.run(as: Self.owner, ["query", path, "Product", "--format", "csv"])
        #expect(query.status == 0, "\(query.stderr)")
        #expect(query.stdout.contains("apple"))
        #expect(query.stderr.contains("opened read-only"), "\(query.stderr)")
        #expect(Self.sideFiles(path).isEmpty)
    }

    @Test func explicitReadOnlyRefusesWritesAndChangesNothing() throws {
        let dir = TempDir()
        let path = dir.path("shop.vellum")
        try CLIFixtures.makeShop(at: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let query = try VellumBinary.run(["query", path, "Product", "--read-only", "--format", "csv"])
        #expect(query.status == 0, "\(query.stderr)")
        #expect(query.stdout.contains("apple"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(Self.sideFiles(path).isEmpty)
    }
}
