import Testing
@testable import VellumStore

/// SQLite's `?` placeholders numbered for PostgreSQL, never inside quotes or comments.
@Suite struct PGPlaceholdersTests {
    @Test func questionMarksAreNumberedInOrderOutsideQuotesAndComments() {
        #expect(PGPlaceholders.numbered(#"UPDATE "t?" SET "a" = ?, b = '?''?' WHERE k = ? -- why?"# + "\nAND v = ?")
            == #"UPDATE "t?" SET "a" = $1, b = '?''?' WHERE k = $2 -- why?"# + "\nAND v = $3")
        #expect(PGPlaceholders.numbered("SELECT $1, $2") == "SELECT $1, $2")
    }
}
