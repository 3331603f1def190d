import Foundation
import Testing
@testable import VellumApp
import VellumStore
import VellumTerminal

/// Issue 17, never blocking: a sort, filter, group, summary, find, deletion preview or
/// export ran its SQL on the main thread, and the cancel watcher dropped every key but
/// Esc and Ctrl-C typed meanwhile. Now each reads on a reader of its own: the session
/// takes keys while it runs (`dispatch` does not wait for it), Esc interrupts it and
/// leaves the view as it was, and a late result of cancelled work is ignored.
@MainActor @Suite(.serialized) struct NeverBlockingTests {
    /// Matching it against the 25 products whose sku is 20,000 characters takes a while
    /// (about 50 ms a row in a debug build); no product matches, so negated it lists all 200.
    static let slowFilter = "NOT (sku MATCHES '(x|xx|y)*a\\\\b')"

    /// The demo store with those 25 slow products, open on Product, the slow filter applied:
    /// every query of the list (a sort, a summary, a find) now runs that regex again.
    func slowList() async throws -> BrowserSession {
        let url = try SessionTests.makeStore()
        _ = try sqliteText(url, """
            UPDATE Product SET sku = printf('%.*c', 20000, 'x') || 'b'
            WHERE _pk IN (SELECT _pk FROM Product ORDER BY name DESC LIMIT 25)
            """)
        let s = BrowserSession(container: try SessionTests.open(url))
        s.setLayout(Layout(size: TerminalSize(rows: 40, columns: 120)))
        try await type(":goto Product\r", into: s)
        try await type("/" + Self.slowFilter + "\r", into: s)
        #expect(s.state.filterText == Self.slowFilter && s.state.rowCount == 200, "\(s.state.statusMessage ?? "")")
        return s
    }

    func type(_ text: String, into s: BrowserSession) async throws {
        for c in text { await s.handle(c == "\r" ? .enter : .char(c)) }
    }

    /// The list as shown: its rows' IDs in order.
    func shown(_ s: BrowserSession) -> [ObjectID] { (0..<(s.rows?.count ?? 0)).compactMap { s.rows?.id(at: $0) } }

    @Test func keysTypedWhileASortRunsAreNotDropped() async throws {
        let s = try await slowList()
        let before = shown(s)
        #expect(s.state.cursorRow == 0)
        // `s` sorts by the cursor's column (name, descending after the default ascending order).
        await s.dispatch(.char("S"))
        #expect(s.state.runningWork == "sorting", "the sort runs off the main thread; \(s.state.statusMessage ?? "")")
        #expect(s.state.statusMessage == "sorting… (Esc or Ctrl-C cancels)")
        await s.dispatch(.char("j"))
        await s.dispatch(.char("j"))
        await s.dispatch(.char("k"))
        #expect(s.state.cursorRow == 1, "the keys moved the cursor on the list as it was")
        #expect(s.state.runningWork == "sorting" && s.state.statusMessage?.hasPrefix("sorting…") == true, "still running, still said")
        // Esc stops it: the previous view — filter, sort, rows, cursor — is exactly as it was.
        await s.dispatch(.escape)
        #expect(s.state.runningWork == nil)
        #expect(s.state.statusMessage == "sort cancelled; the list is unchanged")
        #expect(s.state.sort == nil && s.state.filterText == Self.slowFilter)
        #expect(shown(s) == before)
        #expect(s.state.cursorRow == 1 && s.rows?.id(at: 1) == before[1])
        await s.writesSettled()
        // The same sort, not cancelled, is applied.
        await s.handle(.char("S"))
        #expect(s.state.sort?.ascending == false && Set(shown(s)) == Set(before) && shown(s) != before, "\(s.state.statusMessage ?? "")")
    }

    @Test func keysTypedWhileASummaryRunsAreNotDroppedAndEscCancelsIt() async throws {
        let s = try await slowList()
        await s.dispatch(.char("j"))
        await s.dispatch(.char("F"))
        #expect(s.state.runningWork == "summarizing" && s.state.statusMessage == "summarizing… (Esc or Ctrl-C cancels)")
        await s.dispatch(.char("j"))
        #expect(s.state.cursorRow == 2 && s.state.mode == .browse)
        // `?` opens help over the list while it runs; Esc closes the help, Ctrl-C stops the work.
        await s.dispatch(.char("?"))
        #expect(s.state.mode == .help)
        await s.dispatch(.escape)
        #expect(s.state.mode == .browse && s.state.runningWork == "summarizing")
        let requests = await s.dispatch(.ctrl("c"))
        #expect(requests.isEmpty, "Ctrl-C stops the work, it does not quit")
        #expect(s.state.runningWork == nil && s.state.statusMessage == "summary cancelled" && s.state.mode == .browse)
        #expect(s.state.cursorRow == 2 && s.state.filterText == Self.slowFilter)
    }

    @Test func aSecondLongOperationWhileOneRunsIsRefusedSayingSo() async throws {
        let s = try await slowList()
        let before = shown(s)
        await s.dispatch(.char("S"))
        #expect(s.state.runningWork == "sorting")
        await s.dispatch(.char("F"))
        #expect(s.state.statusMessage == "summary: sorting is still running; Esc cancels it", "\(s.state.statusMessage ?? "")")
        #expect(s.state.mode == .browse && s.state.runningWork == "sorting", "the sort runs on")
        await s.runner.workSettled()
        #expect(s.state.runningWork == nil && s.state.sort?.ascending == false && shown(s) != before)
    }

    @Test func aFilterThatDoesNotFitIsRefusedAtOnceAndKeepsItsPrompt() async throws {
        let s = try await slowList()
        // A filter that does not fit the model is refused before any reader runs: the prompt
        // keeps the reason, the filter applied stays.
        try await type("/", into: s)
        for _ in 0..<Self.slowFilter.count { await s.handle(.backspace) }
        try await type("nope == 1\r", into: s)
        #expect(s.state.mode == .filter && s.state.promptError?.contains("nope") == true)
        #expect(s.state.filterText == Self.slowFilter)
    }

    @Test func aGroupingRunsOffTheMainThreadAndEscLeavesTheListUngrouped() async throws {
        let s = try await slowList()
        let before = shown(s)
        try await type(":group name\r", into: s)   // `handle` waits: grouped, as before
        #expect(s.state.groupKey == "name", "\(s.state.statusMessage ?? "")")
        try await type(":group\r", into: s)
        #expect(s.state.groupKey == nil && shown(s) == before)
        for c in ":group name" { await s.dispatch(.char(c)) }
        await s.dispatch(.enter)
        #expect(s.state.runningWork == "grouping")
        await s.dispatch(.char("j"))
        #expect(s.state.cursorRow == 1)
        await s.dispatch(.escape)
        #expect(s.state.statusMessage == "group cancelled; the list is unchanged")
        #expect(s.state.groupKey == nil && shown(s) == before && s.state.cursorRow == 1)
    }

    @Test func theDeleteQuestionStaysWhileItsPreviewCountsAndEscWithdrawsIt() async throws {
        let s = try await slowList()
        await s.dispatch(.char("d"))
        #expect(s.state.mode == .confirmDelete && s.state.runningWork == "counting what the delete takes along")
        await s.dispatch(.escape)
        #expect(s.state.mode == .browse && s.state.runningWork == nil)
        #expect(s.state.statusMessage == "delete cancelled; nothing deleted")
        // Answered before the count came: the count is dropped quietly, the answer holds.
        await s.dispatch(.char("d"))
        await s.dispatch(.char("n"))
        #expect(s.state.mode == .browse && s.state.runningWork == nil && s.state.statusMessage == "delete cancelled")
        await s.writesSettled()
        #expect(s.state.rowCount == 200)
    }

    @Test func openingAnotherListWhileASortRunsDropsTheSortQuietly() async throws {
        let s = try await slowList()
        for c in ":sort -price" { await s.dispatch(.char(c)) }
        await s.dispatch(.enter)
        #expect(s.state.runningWork == "sorting" && s.state.mode == .browse)
        for c in ":goto Task" { await s.dispatch(.char(c)) }
        await s.dispatch(.enter)
        // The sort was for the list left: stopped, and its `:` prompt does not come back over Task.
        #expect(s.state.currentEntityName == "Task" && s.state.runningWork == nil && s.state.mode == .browse)
        #expect(s.state.statusMessage?.contains("cancelled") != true, "\(s.state.statusMessage ?? "")")
        await s.writesSettled()
        #expect(s.state.currentEntityName == "Task" && s.state.sort == nil && s.state.rowCount == 30)
    }

    /// A late result of cancelled work is dropped by its generation number, and a later
    /// piece of work started meanwhile reports normally.
    @Test func aCancelledOperationsLateResultIsIgnored() async throws {
        let url = try SessionTests.makeStore()
        let s = BrowserSession(container: try SessionTests.open(url))
        let gate = DispatchSemaphore(value: 0)
        let heard = Heard()
        s.runner.runInBackground("waiting", { _ in gate.wait(); return "late" }) { outcome in
            if case .done(let v) = outcome { heard.list.append(v) } else if case .cancelled = outcome { heard.list.append("cancelled") }
        }
        #expect(s.state.runningWork == "waiting")
        await s.dispatch(.escape)
        #expect(heard.list == ["cancelled"] && s.state.runningWork == nil)
        s.runner.runInBackground("counting", { ctx in try ctx.count(FetchRequest(entityName: "Product")) }) { outcome in
            if case .done(let n) = outcome { heard.list.append("\(n)") }
        }
        await s.runner.workSettled()
        #expect(heard.list == ["cancelled", "200"])
        gate.signal()
        // The first work now returns "late"; nothing hears it.
        try await Task.sleep(for: .milliseconds(200))
        #expect(heard.list == ["cancelled", "200"] && s.state.runningWork == nil)
    }

    @MainActor final class Heard { var list: [String] = [] }

    @Test func liveUpdatesArriveWhileASortRuns() async throws {
        let s = try await slowList()
        let first = try #require(s.rows?.id(at: 0))
        await s.dispatch(.char("S"))
        #expect(s.state.runningWork == "sorting")
        try await s.container.enqueue { ctx in
            let o = try ctx.existingObject(with: first)
            try o.setValue(.double(1234.5), forKey: "price")
        }
        #expect(await waitUntil { (try? s.rows?.object(at: 0).value(forKey: "price")) == .double(1234.5) }, "merged into the list shown")
        #expect(s.state.runningWork == "sorting")
        await s.dispatch(.escape)
        #expect(s.rows?.id(at: 0) == first)
    }
}
