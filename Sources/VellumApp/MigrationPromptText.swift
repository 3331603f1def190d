import VellumStore

/// What the migration prompt shows, as plain lines for a screen of a given size:
/// a title, the plan in words (wrapped to the width, scrolled by `offset`), and the
/// question or, for a plan that cannot run, why not. Pure, so it is tested without a terminal.
struct MigrationPromptText: Equatable {
    enum Kind: Equatable { case title, body, question }
    struct Line: Equatable {
        var text: String
        var kind: Kind
    }

    let title: String
    let planLines: [String]
    let question: String
    let canRun: Bool

    init(plan: MigrationPlan, storeName: String, modelName: String) {
        title = "\(storeName) holds another model than \(modelName); migrate it?"
        planLines = plan.description.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            .reversed().drop { $0.isEmpty }.reversed()
        canRun = plan.canRun
        question = plan.canRun
            ? "y: migrate (a backup is kept)   n or Esc: leave it unchanged and quit"
            : "The plan cannot run; the store is left as it is. Any key quits."
    }

    /// Rows of the plan visible between the title and the question.
    static func bodyHeight(rows: Int) -> Int { max(0, rows - 3) }

    /// The plan's lines wrapped at spaces to `columns`, continuations indented under their text.
    func wrapped(columns: Int) -> [String] {
        planLines.flatMap { Self.wrap($0, columns: max(20, columns)) }
    }

    /// The largest scroll offset that still fills the body.
    func maxOffset(rows: Int, columns: Int) -> Int { max(0, wrapped(columns: columns).count - Self.bodyHeight(rows: rows)) }

    /// The screen's lines, top to bottom; a "more" mark when the plan does not fit.
    func lines(rows: Int, columns: Int, offset: Int) -> [Line] {
        let all = wrapped(columns: columns)
        let height = Self.bodyHeight(rows: rows)
        let start = min(max(0, offset), maxOffset(rows: rows, columns: columns))
        var body = Array(all.dropFirst(start).prefix(height))
        if start + height < all.count, !body.isEmpty {
            body[body.count - 1] = "… \(all.count - start - height + 1) more lines (↓ PgDn)"
        }
        body += Array(repeating: "", count: height - body.count)
        return [Line(text: title, kind: .title)] + body.map { Line(text: $0, kind: .body) }
            + [Line(text: "", kind: .body), Line(text: question, kind: .question)]
    }

    static func wrap(_ line: String, columns: Int) -> [String] {
        guard line.count > columns else { return [line] }
        let indent = String(repeating: " ", count: min(line.prefix { $0 == " " }.count + 4, columns / 2))
        var out: [String] = []
        var rest = Substring(line)
        var prefix = ""
        while prefix.count + rest.count > columns {
            let room = columns - prefix.count
            let cut = rest.prefix(room + 1).lastIndex(of: " ").flatMap { $0 > rest.startIndex ? $0 : nil }
                ?? rest.index(rest.startIndex, offsetBy: room)
            out.append(prefix + rest[..<cut])
            rest = rest[cut...].drop { $0 == " " }
            prefix = indent
        }
        out.append(prefix + rest)
        return out
    }
}
