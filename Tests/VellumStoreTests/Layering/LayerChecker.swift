import Foundation

/// Finds back-edges between the layers of a source tree: a file of a lower
/// layer that mentions a type or function declared at the top level of a higher
/// layer. Works on the text (comments and string literals stripped, code inside
/// string interpolations kept), so it needs no compiler.
struct LayerChecker {
    struct SourceFile {
        var layer: String
        var path: String
        var text: String
    }

    struct Violation: CustomStringConvertible, Equatable {
        var path: String
        var line: Int
        var name: String
        var layer: String
        var declaringLayer: String
        var description: String {
            "\(path):\(line): \(layer) uses \(name), which \(declaringLayer) declares (a higher layer)"
        }
    }

    /// Layers from the bottom up: a layer may use its own and lower layers only.
    let layers: [String]

    func violations(in files: [SourceFile]) -> [Violation] {
        let rank = Dictionary(uniqueKeysWithValues: layers.enumerated().map { ($1, $0) })
        let stripped = files.map { Self.strippingCommentsAndStrings($0.text) }
        // Names visible outside their file, by the layer that declares them at the top level.
        var owner: [String: Int] = [:]
        // Every name declared in a layer, at any depth (nested types shadow a higher layer's).
        var declared: [Int: Set<String>] = [:]
        for (file, text) in zip(files, stripped) {
            guard let r = rank[file.layer] else { continue }
            for d in Self.declarations(in: text) {
                declared[r, default: []].insert(d.name)
                if d.isTopLevel && !d.isFilePrivate { owner[d.name] = max(owner[d.name] ?? r, r) }
            }
        }
        var result: [Violation] = []
        for (file, text) in zip(files, stripped) {
            guard let r = rank[file.layer] else { continue }
            let visible = (0...r).reduce(into: Set<String>()) { $0.formUnion(declared[$1] ?? []) }
            for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                var seen: Set<String> = []
                for name in Self.referencedNames(in: line) where !seen.contains(name) {
                    seen.insert(name)
                    guard let o = owner[name], o > r, !visible.contains(name) else { continue }
                    result.append(Violation(path: file.path, line: offset + 1, name: name,
                                            layer: file.layer, declaringLayer: layers[o]))
                }
            }
        }
        return result
    }

    // MARK: Declarations and references

    struct Declaration: Equatable {
        var name: String
        var isTopLevel: Bool
        var isFilePrivate: Bool
    }

    private static let declarationKeywords: Set<String> = ["struct", "class", "enum", "protocol", "actor", "typealias", "func"]

    /// Types and functions declared in stripped source, with whether they are at the top level.
    static func declarations(in text: String) -> [Declaration] {
        var result: [Declaration] = []
        var depth = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let words = identifiers(in: line).map(\.name)
            if let i = words.firstIndex(where: { declarationKeywords.contains($0) }), i + 1 < words.count,
               !(words[i] == "class" && words[i + 1] == "func") {
                let modifiers = words[..<i]
                result.append(Declaration(name: words[i + 1], isTopLevel: depth == 0,
                                          isFilePrivate: modifiers.contains("private") || modifiers.contains("fileprivate")))
            }
            for c in line { if c == "{" { depth += 1 } else if c == "}" { depth -= 1 } }
        }
        return result
    }

    /// Identifiers on a line that may name a declaration (members after a `.` do not).
    static func referencedNames(in line: Substring) -> [String] {
        identifiers(in: line).filter { !$0.isMember }.map(\.name)
    }

    private static func identifiers(in line: Substring) -> [(name: String, isMember: Bool)] {
        var result: [(String, Bool)] = []
        var current = ""
        var previous: Character = " "
        var afterDot = false
        for c in line {
            if c.isLetter || c == "_" || (c.isNumber && !current.isEmpty) {
                if current.isEmpty { afterDot = previous == "." }
                current.append(c)
            } else if !current.isEmpty {
                result.append((current, afterDot))
                current = ""
            }
            previous = c
        }
        if !current.isEmpty { result.append((current, afterDot)) }
        return result
    }

    // MARK: Stripping

    /// The source with comments removed and string literals emptied (line breaks
    /// kept, so line numbers hold); code in `\(…)` interpolations is kept.
    static func strippingCommentsAndStrings(_ source: String) -> String {
        var scanner = Scanner(Array(source))
        scanner.code(until: nil)
        return String(scanner.output)
    }

    private struct Scanner {
        let chars: [Character]
        var i = 0
        var output: [Character] = []
        init(_ chars: [Character]) { self.chars = chars }

        func peek(_ k: Int = 0) -> Character? { i + k < chars.count ? chars[i + k] : nil }
        func starts(_ s: String) -> Bool {
            for (k, c) in s.enumerated() where peek(k) != c { return false }
            return true
        }

        /// Code up to an unbalanced `terminator` (the `)` closing an interpolation), or the end.
        mutating func code(until terminator: Character?) {
            var parens = 0
            while let c = peek() {
                if starts("//") {
                    while let d = peek(), d != "\n" { i += 1 }
                } else if starts("/*") {
                    blockComment()
                } else if c == "#" || c == "\"" {
                    var hashes = 0
                    while peek(hashes) == "#" { hashes += 1 }
                    guard peek(hashes) == "\"" else { output.append(c); i += 1; continue }
                    i += hashes
                    string(hashes: hashes)
                } else {
                    if c == "(" { parens += 1 }
                    if c == ")" {
                        if parens == 0 && terminator == ")" { i += 1; return }
                        parens -= 1
                    }
                    output.append(c)
                    i += 1
                }
            }
        }

        /// A block comment (Swift's nest); its line breaks are kept.
        mutating func blockComment() {
            var depth = 0
            while let c = peek() {
                if starts("/*") { depth += 1; i += 2; continue }
                if starts("*/") { depth -= 1; i += 2; if depth == 0 { return } else { continue } }
                if c == "\n" { output.append(c) }
                i += 1
            }
        }

        /// A string literal starting at its opening quote(s): emptied, except for interpolated code.
        mutating func string(hashes: Int) {
            let delimiter = starts("\"\"\"") ? "\"\"\"" : "\""
            i += delimiter.count
            let close = delimiter + String(repeating: "#", count: hashes)
            let interpolation = "\\" + String(repeating: "#", count: hashes) + "("
            output.append(contentsOf: "\"\"")
            while let c = peek() {
                if starts(close) { i += close.count; return }
                if starts(interpolation) {
                    i += interpolation.count
                    output.append(" ")
                    code(until: ")")
                    output.append(" ")
                    continue
                }
                if c == "\\" && hashes == 0 { i += 2; continue }
                if c == "\n" { output.append(c) }
                i += 1
            }
        }
    }
}
