import Foundation

/// Finds back-edges between the layers of a source tree: a file of a lower
/// layer that mentions a type, function, `let` or `var` declared at the top level
/// of a higher layer, or a member declared by one of its extensions (called as
/// `x.member` or, inside the type, `member`). Works on the text (comments and string literals stripped, code inside
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
        // Members extensions add, with the layer declaring the extension and the extended type.
        var extensionMembers: [String: [(layer: Int, type: String)]] = [:]
        // Every name declared in a layer, at any depth (nested types shadow a higher layer's).
        var declared: [Int: Set<String>] = [:]
        for (file, text) in zip(files, stripped) {
            guard let r = rank[file.layer] else { continue }
            for d in Self.declarations(in: text) {
                declared[r, default: []].insert(d.name)
                if d.isTopLevel && !d.isFilePrivate { owner[d.name] = max(owner[d.name] ?? r, r) }
                if let type = d.extendedType, !d.isFilePrivate { extensionMembers[d.name, default: []].append((r, type)) }
            }
        }
        var result: [Violation] = []
        for (file, text) in zip(files, stripped) {
            guard let r = rank[file.layer] else { continue }
            let visible = (0...r).reduce(into: Set<String>()) { $0.formUnion(declared[$1] ?? []) }
            for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                var seen: Set<String> = []
                for (name, isMember, isLabel) in Self.identifiers(in: line) where !isLabel && !seen.contains(name) {
                    seen.insert(name)
                    // A member (`x.name`, or bare inside the type) that a higher layer's extension
                    // adds to a type this layer can see; or a bare name declared at a higher top level.
                    let added = extensionMembers[name, default: []].filter { $0.layer > r && (owner[$0.type] ?? Int.max) <= r }.map(\.layer).max()
                    let declaringRank = isMember ? added : [owner[name], added].compactMap { $0 }.max()
                    guard let o = declaringRank, o > r, !visible.contains(name) else { continue }
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
        /// The type whose extension declares this directly in its body: usable wherever that type is.
        var extendedType: String? = nil
    }

    private static let declarationKeywords: Set<String> = ["struct", "class", "enum", "protocol", "actor", "typealias", "func", "let", "var"]

    /// Types, functions and values declared in stripped source, with whether they are at
    /// the top level or members of an extension. (A `let`/`var` inside a body is recorded
    /// too, as a name of its layer: it shadows a higher layer's.)
    static func declarations(in text: String) -> [Declaration] {
        var result: [Declaration] = []
        var depth = 0
        // The type whose extension's body this is in; an extension whose brace has not come yet.
        var inExtension: String? = nil, extensionPending: String? = nil
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let found = identifiers(in: line)
            let words = found.map(\.name)
            // Labels and parameter names of a signature are names of this layer too (a parameter shadows).
            if words.contains("func") || words.contains("init") || words.contains("subscript") {
                for label in found where label.isLabel && !label.isMember {
                    result.append(Declaration(name: label.name, isTopLevel: false, isFilePrivate: true))
                }
            }
            let first = depth == 0 ? words.first { !declarationModifiers.contains($0) } : nil
            let opensExtension = first == "extension"
            let extended = opensExtension ? words.drop { $0 != "extension" }.dropFirst().first : nil
            if let first, first == "extension" || declarationKeywords.contains(first) { extensionPending = extended }
            let extensionBody = opensExtension ? extended : depth == 1 ? inExtension : nil
            if let i = words.firstIndex(where: { declarationKeywords.contains($0) }), i + 1 < words.count,
               !(words[i] == "class" && words[i + 1] == "func") {
                let modifiers = words[..<i]
                result.append(Declaration(name: words[i + 1], isTopLevel: depth == 0 && !opensExtension,
                                          isFilePrivate: modifiers.contains("private") || modifiers.contains("fileprivate"),
                                          extendedType: extensionBody))
            }
            for c in line {
                if c == "{" {
                    if depth == 0 { inExtension = extensionPending; extensionPending = nil }
                    depth += 1
                } else if c == "}" {
                    depth -= 1
                    if depth == 0 { inExtension = nil }
                }
            }
        }
        return result
    }

    private static let declarationModifiers: Set<String> = ["public", "package", "internal", "private", "fileprivate", "final", "nonisolated"]

    /// Identifiers on a line that may name a declaration (members after a `.` and argument labels do not).
    static func referencedNames(in line: Substring) -> [String] {
        identifiers(in: line).filter { !$0.isMember && !$0.isLabel }.map(\.name)
    }

    /// Identifiers on a line, with whether each follows a `.` and whether a `:` follows it
    /// (an argument label or parameter name). Keywords are left out.
    static func identifiers(in line: Substring) -> [(name: String, isMember: Bool, isLabel: Bool)] {
        var result: [(String, Bool, Bool)] = []
        var current = ""
        var previous: Character = " "
        var afterDot = false
        var pending: (String, Bool)?
        func finish(next: Character?) {
            guard let (name, member) = pending else { return }
            if !keywords.contains(name) { result.append((name, member, next == ":")) }
            pending = nil
        }
        for c in line {
            if c.isLetter || c == "_" || (c.isNumber && !current.isEmpty) {
                finish(next: nil)
                if current.isEmpty { afterDot = previous == "." }
                current.append(c)
            } else {
                if !current.isEmpty { pending = (current, afterDot); current = "" }
                if c != " " { finish(next: c) }
            }
            previous = c
        }
        if !current.isEmpty { pending = (current, afterDot) }
        finish(next: nil)
        return result
    }

    /// Words of the language that are never a declaration's name where they are used.
    private static let keywords: Set<String> = ["as", "is", "in", "try", "get", "set", "await", "throws", "rethrows", "borrowing", "consuming", "inout", "some", "any", "where", "case", "return", "self", "Self", "super", "nil", "true", "false"]

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
