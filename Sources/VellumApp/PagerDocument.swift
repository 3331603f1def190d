import Foundation
import VellumStore
import VellumTerminal

/// A whole value, for the full-value viewer (`v`): long text as it is, JSON
/// pretty-printed, binary as a hex dump. Lines are wrapped to the viewer's width
/// when drawn (`wrapped`), so a resize rewraps them.
public struct PagerDocument: Sendable, Equatable {
    /// What is shown: `Product p12 · note`.
    public var title: String
    /// How it is shown: `text`, `JSON`, `binary, 1,204 bytes`.
    public var kind: String
    /// The value's lines, before wrapping.
    public var lines: [String]

    @MainActor
    public init(title: String, value: Value) {
        self.title = title
        switch value {
        case .data(let data):
            kind = "binary, \(data.count) byte\(data.count == 1 ? "" : "s")"
            lines = Self.hexDump(data)
        case .string(let text):
            if let pretty = Self.prettyJSON(text) {
                kind = "JSON"
                lines = pretty
            } else {
                kind = "text, \(text.count) character\(text.count == 1 ? "" : "s")"
                lines = Self.textLines(text)
            }
        case .null:
            kind = "no value"
            lines = ["∅"]
        default:
            kind = value.kindName
            lines = Self.textLines(Renderer.cellText(value))
        }
    }

    public init(title: String, text: String) {
        self.title = title
        kind = "text"
        lines = Self.textLines(text)
    }

    static func textLines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.replacingOccurrences(of: "\t", with: "    ").replacingOccurrences(of: "\r", with: "") }
    }

    /// A JSON object or array, indented by two spaces with keys sorted (nil for anything else).
    static func prettyJSON(_ text: String) -> [String]? {
        guard let first = text.first(where: { !$0.isWhitespace }), first == "{" || first == "[",
              let object = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]),
              let data = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]),
              let pretty = String(data: data, encoding: .utf8) else { return nil }
        return textLines(pretty)
    }

    /// 78 columns a line, which fit the viewer at 80:
    /// `00000010  48 65 6c 6c 6f 20 77 6f  72 6c 64 0a 00 01 02 03  |Hello world.....|`
    static func hexDump(_ data: Data) -> [String] {
        let bytes = [UInt8](data)
        guard !bytes.isEmpty else { return ["(no bytes)"] }
        return stride(from: 0, to: bytes.count, by: 16).map { start in
            let row = bytes[start..<min(start + 16, bytes.count)]
            var hex = ""
            for (i, b) in row.enumerated() { hex += (i == 8 ? "  " : i == 0 ? "" : " ") + String(format: "%02x", b) }
            hex = hex.padding(toLength: 16 * 3, withPad: " ", startingAt: 0)
            let ascii = String(row.map { (0x20..<0x7f).contains($0) ? Character(UnicodeScalar($0)) : "." })
            return String(format: "%08x", start) + "  " + hex + "  |" + ascii + "|"
        }
    }

    /// The lines wrapped to `width` display columns, after the last space that fits
    /// (a long word is cut where it must be). One pass over the characters, each
    /// measured once: a megabyte on one line wraps in linear time.
    public func wrapped(width: Int) -> [String] {
        let width = max(1, width)
        var out: [String] = []
        for line in lines {
            var piece: [Character] = [], used = 0
            var afterSpace: Int?   // piece index just after its last space, and the width up to there
            var usedAtSpace = 0
            for c in line {
                let w = DisplayWidth.of(String(c))
                while used + w > width, !piece.isEmpty {
                    let cut = afterSpace.flatMap { $0 < piece.count ? $0 : nil } ?? piece.count
                    out.append(String(piece[..<cut]))
                    piece.removeFirst(cut)
                    used = cut == afterSpace ? used - usedAtSpace : 0
                    afterSpace = nil
                }
                piece.append(c)
                used += w
                if c == " " { afterSpace = piece.count; usedAtSpace = used }
            }
            out.append(String(piece))
        }
        return out
    }
}

/// The viewer's place: the document, its lines wrapped to the viewer's width (once
/// per width, not per key or frame), the first line shown and the search.
public struct PagerState: Sendable, Equatable {
    public var document: PagerDocument
    public var scroll = 0
    /// The text searched for (case-insensitive), and whether the search line is open.
    public var query = ""
    public var searching = false
    private var wrappedLines: [String] = []
    private var wrappedWidth = 0

    public init(document: PagerDocument, width: Int) {
        self.document = document
        fit(width: width)
    }

    /// Wraps the document again when the width changed (a resize).
    public mutating func fit(width: Int) {
        guard width != wrappedWidth else { return }
        wrappedLines = document.wrapped(width: width)
        wrappedWidth = width
    }

    /// The lines at `width`: the kept ones, or wrapped now for a width not fitted yet.
    public func lines(width: Int) -> [String] { width == wrappedWidth ? wrappedLines : document.wrapped(width: width) }

    /// Wrapped lines holding the query, in order.
    public func matches(width: Int) -> [Int] {
        guard !query.isEmpty else { return [] }
        let lines = lines(width: width)
        return lines.indices.filter { lines[$0].range(of: query, options: .caseInsensitive) != nil }
    }
}
