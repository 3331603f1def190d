import Testing
@testable import VellumStore

/// Whether a table changes in place: the new `CREATE TABLE` must be the old one plus
/// column definitions, split where SQL separates them (not inside quotes or parentheses).
@Suite struct SchemaSnapshotTests {
    @Test func addedColumnsAreSplitOutsideQuotesAndParentheses() {
        let old = #"CREATE TABLE "t" ("a" INTEGER, "b" TEXT)"#
        let new = #"CREATE TABLE "t" ("a" INTEGER, "b" TEXT, "c, d" TEXT DEFAULT 'x,y', "e" NUMERIC(10,2),  "é,😀" TEXT CHECK ("e" IN (1, 2)))"#
        #expect(SchemaSnapshot.addedColumnDefinitions(old: old, new: new)
                == [#""c, d" TEXT DEFAULT 'x,y'"#, #""e" NUMERIC(10,2)"#, #""é,😀" TEXT CHECK ("e" IN (1, 2))"#])
    }

    @Test func anUnchangedOrReshapedTableIsNotAnAddition() {
        let old = #"CREATE TABLE "t" ("a" INTEGER, "b" TEXT)"#
        #expect(SchemaSnapshot.addedColumnDefinitions(old: old, new: old) == [])
        #expect(SchemaSnapshot.addedColumnDefinitions(old: old, new: #"CREATE TABLE "t" ("a" INTEGER)"#) == nil)
        #expect(SchemaSnapshot.addedColumnDefinitions(old: old, new: #"CREATE TABLE "t" ("a" TEXT, "b" TEXT, "c" TEXT)"#) == nil)
        #expect(SchemaSnapshot.addedColumnDefinitions(old: old, new: #"CREATE TABLE "t" ("a" INTEGER, "b" TEXTX)"#) == nil)
    }
}
