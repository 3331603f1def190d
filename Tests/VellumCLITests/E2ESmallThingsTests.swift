import Foundation
import Testing
import VellumApp
import VellumStore

/// Issue 17, "Small things seen on the way", end to end at 80×24 and 120×40.
@Suite("E2E small things seen on the way", .serialized, .enabled(if: Tmux.path != nil, "tmux is not installed"))
struct E2ESmallThingsTests {
    static let sizes = [(80, 24), (120, 40)]

    /// The pid of the demo writer started for the store at `path` (read from /proc), if running.
    func writerPID(storePath path: String) -> pid_t? {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let pid = pid_t(entry), let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { continue }
            let arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            if arguments.contains("demo-writer"), arguments.last == path { return pid }
        }
        return nil
    }

    /// Gone from the process table; a `<defunct>` child (state Z) is not gone.
    func isGone(_ pid: pid_t) -> Bool { !FileManager.default.fileExists(atPath: "/proc/\(pid)/stat") }

    @Test(arguments: sizes)
    func quittingTheDemoReapsItsWriter(width: Int, height: Int) async throws {
        let dir = TempDir()
        let t = Tmux("XDG_DATA_HOME='\(dir.url.path)' '\(VellumBinary.url.path)' demo", width: width, height: height)
        defer { t.kill() }
        #expect(t.wait(for: "Entities", 20), "\(t.screen)")
        let store = dir.path("vellum/demo.sqlite")
        var writer: pid_t?
        #expect(await waitUntil(timeout: 20) { writer = writerPID(storePath: store); return writer != nil })
        t.keys("q")
        #expect(t.wait(20) { _ in !t.alive })
        guard let writer else { return }
        let reaped = await waitUntil(timeout: 20) { isGone(writer) }
        let stat = (try? String(contentsOfFile: "/proc/\(writer)/stat", encoding: .utf8)) ?? "gone"
        #expect(reaped, "the demo writer \(writer) is left: \(stat)")
    }

    @Test(arguments: sizes)
    func helpOverlayShowsWholeDescriptionsAndNoFragments(width: Int, height: Int) throws {
        let store = try E2EStore()
        let t = Tmux.browser(store.command, entity: "Product", width: width, height: height)
        defer { t.kill() }
        t.keys("?")
        #expect(t.wait(for: "next row / entity"), "\(t.screen)")
        // No table text beside the box: a help line ends with its description.
        let line = t.screen.split(separator: "\n").first { $0.contains("next row / entity") } ?? ""
        #expect(line.hasPrefix("    j ↓"), "'\(line)'")
        if width < 100 { #expect(line.trimmingCharacters(in: .whitespaces).hasSuffix("next row / entity"), "'\(line)'") }
        if width >= 120 {
            // Waited for, not read once: the overlay's lines may still be arriving when the first one shows.
            func joined(_ screen: String) -> String { screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ") }
            #expect(t.wait(10) { joined($0).contains("follow relationship") }, "\(t.screen)")
        }
        // Scrolled to the end: the last command's description is there, whole.
        t.keys("G")
        #expect(t.wait(for: "write the current list to a file"), "\(t.screen)")
    }

    @Test(arguments: sizes)
    func findTypingReplacesThePreviousSearch(width: Int, height: Int) throws {
        let store = try E2EStore()
        let t = Tmux.browser(store.command, entity: "Provider", width: width, height: height)
        defer { t.kill() }
        t.keys("f"); t.type("fjord"); t.keys("Enter")
        #expect(t.wait(for: "fjord: match 1 of 1"), "\(t.screen)")
        t.keys("f")
        #expect(t.wait(for: "find: fjord"), "\(t.screen)")
        t.type("nordlicht"); t.keys("Enter")
        #expect(t.wait(for: "nordlicht: match 1 of 1"), "\(t.screen)")
        #expect(!t.screen.contains("fjordnordlicht"), "\(t.screen)")
    }

    @Test(arguments: sizes)
    func sortWithAnUnknownWordIsRefused(width: Int, height: Int) throws {
        let store = try E2EStore()
        let t = Tmux.browser(store.command, entity: "Product", width: width, height: height)
        defer { t.kill() }
        t.keys(":"); t.type("sort name sideways"); t.keys("Enter")
        #expect(t.wait(for: "'sideways' is not a direction"), "\(t.screen)")
        #expect(!t.screen.contains("sort: name"), "\(t.screen)")
        t.keys("C-u"); t.type("sort name desc"); t.keys("Enter")
        #expect(t.wait(for: "sort: name ▼"), "\(t.screen)")
    }
}
