import Foundation
import Testing

/// High item 3: after a full disk (here a file-size limit: `ulimit -f`), a checkpoint
/// cannot extend the main file and the log keeps the data; every later open said
/// "database disk image is malformed". Such a store is read whole, under the limit
/// and after it; an ordinary open repairs the main file.
@Suite("full disk, then open", .serialized)
struct FullDiskOpeningTests {
    /// `vellum ARGS` under a 100 KB file-size limit (SIGXFSZ ignored, so writes fail instead).
    static func runLimited(_ arguments: [String]) throws -> VellumBinary.Output {
        let quoted = ([VellumBinary.url.path] + arguments).map { "'" + $0 + "'" }.joined(separator: " ")
        return try VellumBinary.run(executable: URL(fileURLWithPath: "/bin/bash"), ["-c", "trap '' XFSZ; ulimit -f 100; exec \(quoted)"])
    }

    /// `sqlite3 PATH` with `sql` under the same limit: the writer that meets the full disk.
    static func writeLimited(_ path: String, _ sql: String) throws -> VellumBinary.Output {
        try VellumBinary.run(executable: URL(fileURLWithPath: "/bin/bash"),
                             ["-c", "trap '' XFSZ; ulimit -f 100; exec /usr/bin/sqlite3 '\(path)' \"$0\"", sql])
    }

    /// ThreadSanitizer's runtime dies of SIGBUS under a file-size limit, whatever the program
    /// does; an instrumented `vellum` is then only run without the limit.
    static let vellumRunsUnderALimit: Bool = {
        guard let data = FileManager.default.contents(atPath: VellumBinary.url.path) else { return true }
        return data.range(of: Data("__tsan_init".utf8)) == nil
    }()

    @Test func storeLeftByAFullDiskIsReadWholeNotMalformed() throws {
        let dir = TempDir()
        let path = dir.path("notes.vellum")
        let model = dir.path("model.json")
        try #"{"entities":[{"name":"Note","attributes":[{"name":"text","type":"string"}]}]}"#
            .write(toFile: model, atomically: true, encoding: .utf8)
        #expect(try VellumBinary.run(["create", path, "--model", model]).status == 0)
        // Until the limit stops a checkpoint (or a write): what was acknowledged must stay readable.
        var acknowledged = 0
        for letter in ["x", "y", "z", "w"] {
            let text = String(repeating: letter, count: 60_000)
            let r = Self.vellumRunsUnderALimit
                ? try Self.runLimited(["insert", path, "Note", "text=" + text])
                : try Self.writeLimited(path, "INSERT INTO Note (_entity, _version, text) VALUES ('Note', 1, '\(text)');")
            #expect(!r.stderr.contains("malformed"), "\(r.stderr)")
            if r.status == 0 { acknowledged += 1 }
        }
        #expect(acknowledged >= 1)
        #expect(acknowledged < 4, "the limit never stopped a write")
        // Usually the log now holds data the main file could not take. When the first run
        // exits before its closing checkpoint, a later run's checkpoint may fit under the
        // limit and empty the log instead: then the data is in the main file. Either way
        // everything acknowledged must read back.
        for run in Self.vellumRunsUnderALimit ? [Self.runLimited, VellumBinary.run] : [VellumBinary.run] {
            let q = try run(["query", path, "Note", "--format", "csv"])
            #expect(q.status == 0, "\(q.stderr)")
            #expect(!q.stderr.contains("malformed"))
            #expect(q.stdout.components(separatedBy: "vellum://").count == acknowledged + 1, "\(q.stdout.prefix(300)) \(q.stderr)")
        }
        #expect(try sqliteScalar(path, "PRAGMA integrity_check") == "ok")
        #expect(try sqliteScalar(path, "SELECT count(*) FROM Note") == "\(acknowledged)")
    }
}
