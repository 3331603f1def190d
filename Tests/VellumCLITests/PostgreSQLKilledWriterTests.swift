import Foundation
import Testing
import VellumStore

/// Issue #18: a writer process killed (`kill -9`) mid-run on a PostgreSQL store
/// leaves no half-written save, loses none it acknowledged, and does not keep the
/// store's write lock: the server ends its session and another writer saves at once.
@Suite("A killed writer over PostgreSQL", .serialized)
struct PostgreSQLKilledWriterTests {
    @Test func aWriterKilledMidRunLeavesNothingHalfWrittenAndDoesNotBlockOthers() async throws {
        let url = try PostgreSQLCluster.shared().makeSchema("killed")
        try CLIFixtures.makeRowStore(at: url)
        let writer = try ChildProcess(["_stress-writer", url, "--writer", "1", "--saves", "1000000", "--seed", "7"])
        #expect(await writer.waitForLines(timeout: 300) { $0.count >= 30 }, "\(writer.stderr)")
        writer.signal(SIGKILL)
        #expect(await writer.waitForExit(timeout: 60))
        let acknowledged = writer.lines.count
        let after = try VellumBinary.run(["insert", url, "Row", "owner=after", "key=1", "value=1"])
        #expect(after.status == 0, "another writer saves after the kill: \(after.stderr)")
        let db = try PGConnection(url: url)
        let saves = try db.scalar(#"SELECT count(*) FROM "_vellum_transactions" WHERE "author" = 'writer-1'"#)?.integerValue ?? 0
        #expect(saves >= Int64(acknowledged), "every save the writer reported committed is recorded")
        #expect(saves <= Int64(acknowledged) + 1, "at most the save in flight committed unreported")
        let empty = try db.scalar(#"SELECT count(*) FROM "_vellum_transactions" t WHERE NOT EXISTS (SELECT 1 FROM "_vellum_changes" c WHERE c."txn" = t."seq")"#)
        #expect(empty == .integer(0), "no save is half-written")
    }
}
