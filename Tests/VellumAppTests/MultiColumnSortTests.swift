import Foundation
import Testing
@testable import VellumApp
import VellumStore
import VellumTerminal

/// Issue 17: `:sort name,-price` sorts by several keys; headers and the status bar show the order.
@Suite struct MultiColumnSortTests {
    func sorts(_ argument: String) -> [VellumStore.QuerySortDescriptor]? { try? SortArgument.parse(argument).get() }
    func refusal(_ argument: String) -> String? {
        if case .failure(let error) = SortArgument.parse(argument) { return error.reason }
        return nil
    }

    @Test func theArgumentListsKeysWithMinusForDescending() {
        #expect(sorts("name,-price") == [VellumStore.QuerySortDescriptor("name"), VellumStore.QuerySortDescriptor("price", ascending: false)])
        #expect(sorts("done, -priority, title") == [VellumStore.QuerySortDescriptor("done"), VellumStore.QuerySortDescriptor("priority", ascending: false), VellumStore.QuerySortDescriptor("title")])
        #expect(sorts("-price") == [VellumStore.QuerySortDescriptor("price", ascending: false)])
        #expect(sorts("price desc") == [VellumStore.QuerySortDescriptor("price", ascending: false)])
        #expect(sorts("") == [])
        #expect(refusal("title sideways") == "'sideways' is not a direction (asc or desc)")
        #expect(refusal("name,,price") == "'' is not a key (write name,-price)")
        #expect(refusal("name,-name") == "'name' is listed twice")
        #expect(refusal("name,--price") != nil)
    }

    @Test func theCommandSortsBySeveralKeysAndTheResultKeepsThem() {
        var s = AppState()
        s.entityNames = ["Task"]
        let effects = Reducer.runCommand(&s, "sort done,-priority")
        #expect(effects == [.applySorts([VellumStore.QuerySortDescriptor("done"), VellumStore.QuerySortDescriptor("priority", ascending: false)])])
        #expect(effects.allSatisfy { $0.isQuery })
        _ = Reducer.reduce(&s, .result(.queryApplied(filter: "", sort: VellumStore.QuerySortDescriptor("done"), atTop: true,
                                                     thenBy: [VellumStore.QuerySortDescriptor("priority", ascending: false)])))
        #expect(s.sortDescriptors == [VellumStore.QuerySortDescriptor("done"), VellumStore.QuerySortDescriptor("priority", ascending: false)])
        // A one-key sort (s, S, :sort KEY) replaces them all.
        _ = Reducer.reduce(&s, .result(.queryApplied(filter: "", sort: VellumStore.QuerySortDescriptor("title"), atTop: true)))
        #expect(s.sortDescriptors == [VellumStore.QuerySortDescriptor("title")])
        #expect(SortMarks.summary([VellumStore.QuerySortDescriptor("done"), VellumStore.QuerySortDescriptor("priority", ascending: false)]) == "done ▲, priority ▼")
    }
}

@MainActor @Suite(.serialized) struct MultiColumnSortSessionTests {
    let snapshots = SnapshotTests()

    /// Issue 17: a key adds the cursor's column as the next sort key; again makes it
    /// descending, again takes it out; the first key is left to s/S.
    @Test func theSortThenKeyAddsFlipsAndDropsASecondaryKey() async throws {
        let s = try await snapshots.session(TerminalSize(rows: 40, columns: 120), entity: "Task")
        let keys = { s.state.sortDescriptors.map(\.description) }
        let done = try #require(s.state.columnNames.firstIndex(of: "done")), priority = try #require(s.state.columnNames.firstIndex(of: "priority"))
        try await snapshots.type("0" + String(repeating: "l", count: done) + "+", into: s)
        #expect(keys() == ["done"], "with no sort yet, it is the sort")
        try await snapshots.type("0" + String(repeating: "l", count: priority) + "+", into: s)
        #expect(keys() == ["done", "priority"])
        let rows = try #require(s.rows)
        var shown: [[Int64]] = []
        for i in 0..<rows.count {
            let o = try rows.object(at: i)
            shown.append([try o.value(forKey: "done").boolValue == true ? 1 : 0, try o.value(forKey: "priority").integerValue ?? -1])
        }
        #expect(shown == shown.sorted { $0.lexicographicallyPrecedes($1) })
        #expect(snapshots.render(snapshots.model(s))[0].contains("priority ▲2"))
        try await snapshots.type("+", into: s)
        #expect(keys() == ["done", "-priority"])
        try await snapshots.type("+", into: s)
        #expect(keys() == ["done"])
        try await snapshots.type("0" + String(repeating: "l", count: done) + "+", into: s)
        #expect(keys() == ["done"] && s.state.statusMessage == "done is the first sort key: s/S set its direction")
    }

    @Test func rowsFollowEveryKeyAndHeadersShowTheOrder() async throws {
        let s = try await snapshots.session(TerminalSize(rows: 40, columns: 120), entity: "Task")
        try await snapshots.type(":sort done,-priority\r", into: s)
        #expect(s.state.sortDescriptors == [VellumStore.QuerySortDescriptor("done"), VellumStore.QuerySortDescriptor("priority", ascending: false)])
        let rows = try #require(s.rows)
        var previous: (done: Bool, priority: Int64)?
        for i in 0..<rows.count {
            let o = try rows.object(at: i)
            let done = try o.value(forKey: "done").boolValue ?? false, priority = try o.value(forKey: "priority").integerValue ?? 0
            let row = (done: done, priority: priority)
            if let p = previous {
                #expect(!p.done || row.done, "row \(i): done after not done")
                if p.done == row.done { #expect(p.priority >= row.priority, "row \(i): priority rises") }
            }
            previous = row
        }
        let screen = snapshots.render(snapshots.model(s))
        let header = screen[s.state.layout!.table.row]
        #expect(header.contains("done ▲1") && header.contains("priority ▼2"), "\(header)")
        #expect(screen.contains { $0.contains("sort: done ▲, priority ▼") })
        // An unknown key is refused as for one key; the order stays.
        try await snapshots.type(":sort done,-nosuch\r", into: s)
        #expect(s.state.mode == .command && s.state.promptError != nil)
        #expect(s.state.sortDescriptors == [VellumStore.QuerySortDescriptor("done"), VellumStore.QuerySortDescriptor("priority", ascending: false)])
    }
}
