import Foundation
import Testing
import VellumStore

/// Issue #11 items 8, 13 and 14 in the real browser: the field editor refuses what
/// it would alter, says why, and leaves the file as it was (checked with sqlite3).
@Suite("E2E value fields in tmux", .serialized, .enabled(if: Tmux.path != nil, "tmux is not installed"))
struct E2EValueFieldTests {
    let dir = TempDir()
    var path: String { dir.path("events.sqlite") }

    /// One Event (title, starts 2024-05-01T10:00:00Z, fee, meta) and the Authors Ann and Bob (unique names).
    init() throws {
        let model = try ModelBuilder()
            .entity("Event") {
                $0.attribute("title", .string, optional: false)
                $0.attribute("starts", .date)
                $0.attribute("fee", .decimal)
                $0.attribute("meta", .transformable)
            }
            .entity("Author") {
                $0.attribute("name", .string, optional: false)
                $0.unique("name")
            }
            .build()
        let store = try PersistentStore(url: URL(fileURLWithPath: dir.path("events.sqlite")), model: model)
        let ctx = try ManagedObjectContext(store: store)
        try ctx.insert("Event", values: ["title": .string("Launch"), "starts": .date(Date(timeIntervalSince1970: 1_714_557_600)),
                                         "meta": .string("[1]")])
        try ctx.insert("Author", values: ["name": .string("Ann")])
        try ctx.insert("Author", values: ["name": .string("Bob")])
        _ = try ctx.save()
    }

    func sql(_ statement: String) -> String {
        (try? sqliteOutput(path, statement)) ?? "sqlite3 could not run"
    }

    @Test func badDateInTheFieldEditorIsRefusedAndTheFileUnchanged() throws {
        let t = Tmux.browser("'\(VellumBinary.url.path)' '\(path)'", entity: "Event")
        defer { t.kill() }   // failed expectations may keep `t` alive
        // Columns: title starts fee meta.
        t.keys("l", "e")
        #expect(t.wait(for: "2024-05-01T10:00:00Z"), "\(t.screen)")
        let refusals = [("2024-02-30", "'2024-02-30' is not a date: February 2024 has no day 30"),
                        ("2024-06-02T25:99:00Z", "hour 25 is out of range (00-23)"),
                        ("2024-06-01xyz", "unexpected 'xyz' after the date"),
                        ("99999-01-01", "expected a 4-digit year, found more digits")]
        for (typed, message) in refusals {
            t.keys("C-u"); t.type(typed); t.keys("Enter")
            #expect(t.wait(for: message), "\(typed): \(t.screen)")
            #expect(t.screen.contains(typed), "the typed text stays in the editor: \(t.screen)")
            #expect(sql("SELECT starts FROM Event") == "1714557600.0")
        }
        t.keys("C-u"); t.type("2024-05-01 12:30"); t.keys("Enter")
        #expect(t.wait(for: "saved starts"), "\(t.screen)")
        #expect(sql("SELECT starts FROM Event") == "1714566600.0")
        #expect(t.wait(for: "2024-05-01T12:30:00Z"), "the detail pane shows it in full: \(t.screen)")
    }

    /// A stored date with a fraction, as another program wrote it, is shown so that
    /// saving the editor's text unchanged writes the very same double.
    @Test func shownDateTypesBackToTheSameValue() throws {
        _ = sql("UPDATE Event SET starts = 1714566600.1234567")
        let before = try #require(try storedSeconds(path, "Event", "starts", where: "TRUEPREDICATE"))
        let shown = ISODate.text(Date(timeIntervalSince1970: before))
        let t = Tmux.browser("'\(VellumBinary.url.path)' '\(path)'", entity: "Event")
        defer { t.kill() }
        t.keys("l", "e")
        #expect(t.wait(for: shown), "the editor starts with the shown text \(shown): \(t.screen)")
        t.keys("Enter")
        #expect(t.wait(for: "saved starts"), "\(t.screen)")
        #expect(try storedSeconds(path, "Event", "starts", where: "TRUEPREDICATE") == before)
        #expect(sql("SELECT typeof(starts) FROM Event") == "real")
    }

    @Test func emptyRequiredNullJSONAndDecimalDigits() throws {
        let t = Tmux.browser("'\(VellumBinary.url.path)' '\(path)'", entity: "Event")
        defer { t.kill() }
        // Empty text for the required title: said, not saved as "".
        t.keys("e")
        #expect(t.wait(for: "^U/^K/^W  required"), "the editor says the title is required: \(t.screen)")
        t.keys("C-u", "Enter")
        #expect(t.wait(for: "title is required"), "\(t.screen)")
        #expect(sql("SELECT quote(title) FROM Event") == "'Launch'")
        t.keys("Escape")
        #expect(t.wait(for: "edit cancelled"), "\(t.screen)")
        // A decimal says how it is stored.
        t.keys("l", "l", "e", "C-u"); t.type("12.50"); t.keys("Enter")
        #expect(t.wait(for: "saved fee ('12.50' is stored as 12.5)"), "\(t.screen)")
        #expect(sql("SELECT fee FROM Event") == "12.5")
        // JSON null for the optional transformable stores NULL, not the text 'null'.
        t.keys("l", "e")
        #expect(t.wait(for: "empty or null = no value"), "\(t.screen)")
        t.keys("C-u"); t.type("null"); t.keys("Enter")
        #expect(t.wait(for: "saved meta"), "\(t.screen)")
        #expect(sql("SELECT quote(meta) FROM Event") == "NULL")
    }

    @Test func duplicateSaysWhichAttributeMustBeUnique() throws {
        let t = Tmux.browser("'\(VellumBinary.url.path)' '\(path)'", entity: "Author")
        defer { t.kill() }
        t.keys("e", "C-u"); t.type("Bob"); t.keys("Enter")
        #expect(t.wait(for: "Author.name must be unique ('Bob' exists)"), "\(t.screen)")
        #expect(!t.screen.contains("vellum://"), "\(t.screen)")
        #expect(sql("SELECT group_concat(name, ',') FROM (SELECT name FROM Author ORDER BY name)") == "Ann,Bob")
    }
}
