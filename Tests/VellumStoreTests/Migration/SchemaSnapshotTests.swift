import Foundation
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

extension SchemaSnapshotTests {
    /// Every fixture model's schema, read from the layout's statements as SQLite would keep
    /// them, equals the schema SQLite keeps after running them (the scratch database the
    /// migration used before), so the in-place/rebuild decisions are unchanged.
    @Test func theSchemaReadFromTheStatementsIsTheOneSQLiteKeeps() throws {
        let directory = SharedFixtures.directory.appendingPathComponent("models")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".xml") }.sorted()
        #expect(files.count >= 3, "fixture models: \(directory.path)")
        var models = try files.map { try XcodeModelReader.read(url: directory.appendingPathComponent($0)) }
        models.append(try ModelBuilder()
            .entity("Shape", abstract: true) { $0.attribute("name", .string, indexed: true) }
            .entity("Circle", parent: "Shape") { $0.attribute("radius", .double); $0.toMany("tags", "Tag", inverse: "circles", ordered: true) }
            .entity("Tag") { $0.attribute("label", .string); $0.toMany("circles", "Circle", inverse: "tags"); $0.toOne("owner", "Owner", inverse: "tags") }
            .entity("Owner") { $0.attribute("nick \"q\"", .string); $0.toMany("tags", "Tag", inverse: "owner") }
            .build())
        for model in models {
            let statements = NativeLayout(model: model).schemaSQL()
            let read = try #require(SchemaSnapshot.fromStatements(statements), "\(model.entityNames)")
            let kept = try SchemaSnapshot.scratch(statements)
            #expect(read.tables == kept.tables, "\(model.entityNames)")
            for (k, v) in kept.tables where read.tables[k] != v { print("DIFF T \(k)\n  read: \(read.tables[k] ?? "-")\n  kept: \(v)") }
            for (k, v) in kept.indexes where read.indexes[k]?.sql != v.sql { print("DIFF I \(k)\n  read: \(read.indexes[k]?.sql ?? "-")\n  kept: \(v.sql)") }
            #expect(read.indexes.mapValues { "\($0.table) \($0.sql)" } == kept.indexes.mapValues { "\($0.table) \($0.sql)" }, "\(model.entityNames)")
        }
    }

    /// Statements in another form are run in a scratch database instead of being guessed at.
    @Test func otherStatementsAreNotReadAsWritten() throws {
        for statement in [#"CREATE TABLE IF NOT EXISTS "t" (a)"#, #"create table t (a)"#, #"CREATE TABLE main."t" (a)"#,
                          #"CREATE TABLE [t] (a)"#, "INSERT INTO t VALUES (1)", #"CREATE  TABLE "t" (a)"#] {
            #expect(SchemaSnapshot.fromStatements([statement]) == nil, "\(statement)")
        }
        let odd = try SchemaSnapshot.scratch([#"CREATE TABLE IF NOT EXISTS "t" (a);"#, #"CREATE INDEX IF NOT EXISTS "i" ON "t" (a)"#])
        #expect(odd.tables == ["t": #"CREATE TABLE "t" (a)"#])
        #expect(odd.indexes["i"]?.sql == #"CREATE INDEX "i" ON "t" (a)"#)
    }
}
