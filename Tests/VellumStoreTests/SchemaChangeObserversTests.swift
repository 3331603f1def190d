import Foundation
import Testing
@testable import VellumStore

/// Schema changes nobody has heard yet are kept as the schema before the first and after
/// the last: memory stays bounded for a container that never observes, and the first
/// observer hears the net change once.
@Suite struct SchemaChangeObserversTests {
    static func table(_ name: String, _ columns: [String]) -> TableInfo {
        TableInfo(name: name, type: "table", withoutRowid: false,
                  columns: columns.map { TableInfo.Column(name: $0, declaredType: "TEXT", primaryKeyPosition: 0) },
                  sql: "CREATE TABLE \(name) (\(columns.joined(separator: ", ")))")
    }

    final class Heard: Sendable {
        let changes = Locked<[SchemaChange]>([])
        var all: [SchemaChange] { changes.withLock { $0 } }
    }

    /// Regression (known gap of stop 34): each unheard change was appended to a list that
    /// only an observer emptied, so a container that never observed kept every one.
    @Test func unheardSchemaChangesAreBoundedToTheirNetChange() {
        let observers = SchemaChangeObservers()
        var schema = ["A": Self.table("A", ["x"])]
        for i in 0..<1000 {   // a thousand DDLs nobody listens to: a table made and dropped each time
            var next = schema
            next["T\(i)"] = Self.table("T\(i)", ["y"])
            observers.notify(from: schema, to: next)
            observers.notify(from: next, to: schema)
        }
        var last = schema
        last["A"] = Self.table("A", ["x", "z"])
        last["B"] = Self.table("B", ["w"])
        observers.notify(from: schema, to: last)
        schema = last

        let heard = Heard()
        _ = observers.add { change in heard.changes.withLock { $0.append(change) } }
        #expect(heard.all.count == 1)
        #expect(heard.all.first?.addedTables == ["B"])
        #expect(heard.all.first?.addedColumns == ["A": ["z"]])
        #expect(heard.all.first?.summary == "table B added; column A.z added")

        // Heard once: a second observer hears only what happens next.
        let second = Heard()
        _ = observers.add { change in second.changes.withLock { $0.append(change) } }
        #expect(second.all.isEmpty)
        var dropped = schema
        dropped["B"] = nil
        observers.notify(from: schema, to: dropped)
        #expect(heard.all.count == 2 && second.all.count == 1)
        #expect(second.all.first?.droppedTables == ["B"])
    }

    @Test func changesUndoneBeforeAnyoneListensAreNoChange() {
        let observers = SchemaChangeObservers()
        let schema = ["A": Self.table("A", ["x"])]
        var other = schema
        other["A"] = Self.table("A", ["x", "y"])
        observers.notify(from: schema, to: other)
        observers.notify(from: other, to: schema)
        let heard = Heard()
        _ = observers.add { change in heard.changes.withLock { $0.append(change) } }
        #expect(heard.all.isEmpty)
    }
}
