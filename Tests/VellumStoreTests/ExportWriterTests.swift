import Foundation
import Testing
import VellumStore

/// `vellum query` writes rows batch by batch, `:export` all at once, through one
/// `ExportWriter`: however the rows are split, the bytes are the same.
@Suite struct ExportWriterTests {
    let header = ["name", "price", "photo", "when"]
    let rows: [[Value]] = [
        [.string("cherry, \"red\"\n"), .double(12), .data(Data([0, 1, 255])), .date(Date(timeIntervalSince1970: 0))],
        [.string("tab\there \\ \u{1}"), .double(.nan), .null, .null],
        [.string("Café"), .integer(-3), .bool(true), .uuid(UUID(uuidString: "00000000-0000-0000-0000-000000000001")!)],
    ]

    func batched(_ format: ExportWriter.Format, _ sizes: [Int]) -> String {
        var writer = ExportWriter(format: format, header: header)
        var out = "", start = 0
        for size in sizes {
            out += writer.text(for: Array(rows[start..<start + size]))
            start += size
        }
        return out + writer.ending()
    }

    /// A cell holding a CRLF line break is quoted. Checked by `Character`, the old test
    /// missed it: `"\r\n"` is one grapheme, equal to neither `"\r"` nor `"\n"`, so the
    /// cell went out bare and split its record in two for every CSV reader.
    @Test func aCellWithACRLFLineBreakIsQuoted() {
        #expect(ExportText.csvField("one\r\ntwo") == "\"one\r\ntwo\"")
        #expect(ExportText.csvField("é,\u{301}") == "\"é,\u{301}\"")
        #expect(ExportText.csvField("plain é") == "plain é")
        #expect(ExportText.csvLine(["a\r\nb", "c"]) == "\"a\r\nb\",c\r\n")
    }

    /// Foundation's `replacingOccurrences` skipped a quote that a combining mark follows
    /// (one composed character to it): the field's quoting then ended early.
    @Test func aQuoteACombiningMarkFollowsIsDoubledInACSVField() {
        #expect(Array(ExportText.csvField("a\"\u{301}b").unicodeScalars) == Array("\"a\"\"\u{301}b\"".unicodeScalars))
    }

    @Test func csvIsTheSameInAnyBatches() {
        let whole = ExportText.csv(header: header, rows: rows)
        #expect(whole == "name,price,photo,when\r\n\"cherry, \"\"red\"\"\n\",12.0,AAH/,1970-01-01T00:00:00Z\r\n"
            + "tab\there \\ \u{1},nan,,\r\nCafé,-3,true,00000000-0000-0000-0000-000000000001\r\n")
        for sizes in [[3], [1, 2], [1, 1, 1], [0, 3, 0], [2, 0, 1]] { #expect(batched(.csv, sizes) == whole, "\(sizes)") }
    }

    @Test func jsonIsTheSameInAnyBatches() {
        let whole = ExportText.json(keys: header, rows: rows)
        #expect(whole == "[\n  {\"name\":\"cherry, \\\"red\\\"\\n\",\"price\":12.0,\"photo\":\"AAH/\",\"when\":\"1970-01-01T00:00:00Z\"},\n"
            + "  {\"name\":\"tab\\there \\\\ \\u0001\",\"price\":null,\"photo\":null,\"when\":null},\n"
            + "  {\"name\":\"Café\",\"price\":-3,\"photo\":true,\"when\":\"00000000-0000-0000-0000-000000000001\"}\n]\n")
        for sizes in [[3], [1, 2], [1, 1, 1], [0, 3, 0], [2, 0, 1]] { #expect(batched(.json, sizes) == whole, "\(sizes)") }
    }

    @Test func noRows() {
        #expect(ExportText.csv(header: header, rows: []) == "name,price,photo,when\r\n")
        #expect(ExportText.json(keys: header, rows: []) == "[]\n")
        #expect(batched(.json, [0, 0]) == "[]\n")
    }
}
