import Foundation
import Testing
@testable import VellumApp
import VellumStore
import VellumTerminal

/// Issue 17: the full-value viewer (`v`) for long text, JSON and binary, with wrapping and search.
@MainActor @Suite(.serialized) struct PagerTests {
    let snapshots = SnapshotTests()

    @Test func jsonIsIndentedBinaryIsAHexDumpAndTextWrapsAtSpaces() {
        let json = PagerDocument(title: "t", value: .string(#"{"b": [1, 2], "a": {"c": "x/y"}}"#))
        #expect(json.kind == "JSON")
        #expect(json.lines == ["{", #"  "a" : {"#, #"    "c" : "x/y""#, "  },", #"  "b" : ["#, "    1,", "    2", "  ]", "}"])
        // Text that only starts like JSON stays text.
        #expect(PagerDocument(title: "t", value: .string("{not json")).kind.hasPrefix("text"))
        let binary = PagerDocument(title: "t", value: .data(Data("Hello, world!\n\u{0}\u{1}\u{2}".utf8)))
        #expect(binary.kind == "binary, 17 bytes")
        #expect(binary.lines == ["00000000  48 65 6c 6c 6f 2c 20 77  6f 72 6c 64 21 0a 00 01  |Hello, world!...|",
                                 "00000010  02                                                |.|"])
        #expect(binary.lines.allSatisfy { $0.count <= 78 }, "fits the viewer at 80 columns")
        let text = PagerDocument(title: "t", value: .string("one two three four\n\nfive"))
        #expect(text.wrapped(width: 9) == ["one two ", "three ", "four", "", "five"])
        #expect(PagerDocument(title: "t", value: .string(String(repeating: "x", count: 10))).wrapped(width: 4) == ["xxxx", "xxxx", "xx"])
        #expect(PagerDocument(title: "t", value: .null).lines == ["∅"])
        // One long line (no line breaks): every piece fits, and together they are the text.
        let long = (0..<3000).map { $0 % 7 == 0 ? "word\($0) " : "x" }.joined()
        let pieces = PagerDocument(title: "t", value: .string(long)).wrapped(width: 40)
        #expect(pieces.allSatisfy { $0.count <= 40 } && pieces.joined() == long && pieces.count > long.count / 40)
        #expect(PagerDocument(title: "t", value: .string("ab cdef")).wrapped(width: 3) == ["ab ", "cde", "f"])
    }

    /// A store whose one record has a long note, a JSON document and bytes.
    func store() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vellum-pager-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent("notes.sqlite")
        let model = try ModelBuilder().entity("Note") {
            $0.attribute("title", .string)
            $0.attribute("body", .string)
            $0.attribute("json", .string)
            $0.attribute("bytes", .binary)
        }.build()
        let container = try PersistentContainer(model: model, storeURL: url)
        let ctx = try ManagedObjectContext(store: container.store)
        let body = (1...60).map { "Line \($0) of a long note" + ($0 == 42 ? " with the needle in it" : "") }.joined(separator: "\n")
        try ctx.insert("Note", values: ["title": .string("first"), "body": .string(body), "json": .string(#"{"k": [1, 2, 3]}"#),
                                        "bytes": .data(Data((0..<40).map(UInt8.init)))])
        try ctx.save()
        return url
    }

    @Test func viewOpensTheWholeValueScrollsSearchesAndCloses() async throws {
        let s = BrowserSession(container: try SessionTests.open(try store()))
        s.setLayout(Layout(size: TerminalSize(rows: 24, columns: 80)))
        try await snapshots.type("l", into: s)   // body
        try await snapshots.type("v", into: s)
        #expect(s.state.mode == .pager)
        let shown = { snapshots.render(snapshots.model(s)) }
        #expect(shown()[0].contains("Note p1 · body (text,"))
        // 80×24: the frame holds 20 lines, so the last 20 start at line 41.
        #expect(shown()[1].contains("Line 1 of a long note") && shown().contains { $0.contains("lines 1–20 of 60") })
        // Search: the line opens at the bottom; Enter scrolls to the first match and says where.
        try await snapshots.type("/needle\r", into: s)
        #expect(s.state.pager?.scroll == 40)
        #expect(s.state.statusMessage == "'needle': line 42, match 1 of 1")
        #expect(shown()[2].contains("Line 42 of a long note with the needle in it"))
        try await snapshots.type("g/nothing here\r", into: s)
        #expect(s.state.statusIsError && s.state.pager?.scroll == 0)
        try await snapshots.type("n", into: s)
        #expect(s.state.statusIsError, "n repeats the search that found nothing")
        try await snapshots.type("G", into: s)
        #expect(s.state.pager?.scroll == 40)
        await s.handle(.escape)
        #expect(s.state.mode == .browse && s.state.pager == nil)
        // JSON and bytes.
        try await snapshots.type("lv", into: s)
        #expect(shown()[2].contains(#""k" : ["#))
        await s.handle(.char("q"))
        try await snapshots.type("lv", into: s)
        #expect(shown()[0].contains("(binary, 40 bytes)"))
        #expect(shown()[1].contains("00000000  00 01 02 03 04 05 06 07  08 09 0a 0b 0c 0d 0e 0f  |................|"))
        await s.handle(.char("v"))
        #expect(s.state.mode == .browse)
    }
}
