import Foundation

extension Tmux {
    /// The field names of the browser's detail pane, top to bottom (the first word after the last `│`).
    var detailFieldNames: [String] {
        screen.split(separator: "\n").compactMap { line -> String? in
            guard let bar = line.lastIndex(of: "│") else { return nil }
            return line[line.index(after: bar)...].split(separator: " ").first.map(String.init)
        }
    }

    /// Keys `j` pressed to move the detail pane's cursor from field `from` to field `to`.
    func moveInDetail(from: String, to: String) throws {
        let fields = detailFieldNames
        guard let a = fields.firstIndex(of: from), let b = fields.firstIndex(of: to) else {
            throw TmuxDetailError(message: "no field \(from) or \(to) in:\n\(screen)")
        }
        for _ in 0..<(b - a) { keys("j") }
    }
}

struct TmuxDetailError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
