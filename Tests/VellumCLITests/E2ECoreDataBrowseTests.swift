import Foundation
import Testing

/// The browser on a copy of a Core Data store: follow a car to its owner and back, edit a
/// date and a boolean, and read them with `sqlite3` as Core Data stores them (seconds since
/// 2001, 0/1, `Z_OPT` + 1 per save); the fixture is untouched.
@Suite("E2E browser on a Core Data store", .serialized, .enabled(if: Tmux.path != nil, "tmux is not installed"))
struct E2ECoreDataBrowseTests {
    @Test func followACarToItsOwnerThenEditADateAndABoolean() throws {
        let copy = try CoreDataFixtureCopy("SampleModel-v1.sqlite")
        let path = copy.url.path
        // Rows are sorted by maker: the BMW (p87, limited edition, owned by p9) comes first.
        let owner = try sqliteScalar(path, "SELECT p.ZFIRSTNAME FROM ZCAR c JOIN ZPERSON p ON p.Z_PK = c.ZOWNER WHERE c.Z_PK = 87")
        let t = Tmux.browser("'\(VellumBinary.url.path)' '\(path)'", entity: "ExpensiveSportCar")
        defer { t.kill() }
        t.keys("Tab")
        #expect(t.wait(for: "follow/edit"), "\(t.screen)")
        #expect(t.screen.contains("ExpensiveSportCar p87"), "\(t.screen)")
        try t.moveInDetail(from: "color", to: "owner")
        t.keys("Enter")
        #expect(t.wait(for: "│ Person │ row"), "\(t.screen)")
        #expect(t.screen.contains(owner), "\(t.screen)")
        t.keys("BSpace")
        #expect(t.wait(for: "│ ExpensiveSportCar │ row 1/5"), "\(t.screen)")
        // Columns: color maker markedForDeletionAsOf model numberPlate isLimitedEdition owner.
        t.keys("l", "l", "e", "C-u"); t.type("2024-01-02T03:04:05Z"); t.keys("Enter")
        #expect(t.wait(for: "saved markedForDeletionAsOf"), "\(t.screen)")
        #expect(try sqliteOutput(path, "SELECT CAST(ZMARKEDFORDELETIONASOF AS REAL) || '|' || Z_OPT FROM ZCAR WHERE Z_PK = 87") == "725857445.0|2")
        t.keys("l", "l", "l", "e", "C-u"); t.type("false"); t.keys("Enter")
        #expect(t.wait(for: "saved isLimitedEdition"), "\(t.screen)")
        #expect(try sqliteOutput(path, "SELECT ZISLIMITEDEDITION || '|' || Z_OPT FROM ZCAR WHERE Z_PK = 87") == "0|3")
        t.keys("q")
        #expect(t.wait(10) { _ in !t.alive }, "\(t.screen)")
        #expect(try sqliteOutput(path, "PRAGMA integrity_check") == "ok")
        #expect(copy.originalUnchanged())
    }
}
