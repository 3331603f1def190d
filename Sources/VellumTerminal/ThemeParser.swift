/// Parses the theme text format (documented in docs/themes.md) into a
/// `ThemeDefinition`. Pure: no file system access, so it is unit-testable.
public enum ThemeParser {
    private enum Section { case top, palette, roles }

    /// - Parameters:
    ///   - text: file contents.
    ///   - file: path or name used in error messages.
    ///   - name: theme name (usually the file name without `.theme`).
    public static func parse(_ text: String, file: String, name: String) throws(ThemeError) -> ThemeDefinition {
        var definition = ThemeDefinition(file: file, name: name)
        var section = Section.top
        var lineNumber = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = stripComment(rawLine).trimmingWhitespace()
            if line.isEmpty { continue }

            if line.hasPrefix("[") {
                guard line.hasSuffix("]") else {
                    throw ThemeError(file: file, line: lineNumber, key: nil, reason: "malformed section header '\(line)'")
                }
                switch line.dropFirst().dropLast().trimmingWhitespace().lowercased() {
                case "palette": section = .palette
                case "roles": section = .roles
                default:
                    throw ThemeError(file: file, line: lineNumber, key: nil,
                                     reason: "unknown section '\(line)' (expected [palette] or [roles])")
                }
                continue
            }

            guard let eq = line.firstIndex(of: "=") else {
                throw ThemeError(file: file, line: lineNumber, key: nil, reason: "expected 'key = value'")
            }
            let key = line[..<eq].trimmingWhitespace()
            let value = line[line.index(after: eq)...].trimmingWhitespace()
            guard !key.isEmpty else {
                throw ThemeError(file: file, line: lineNumber, key: nil, reason: "missing key before '='")
            }
            func fail(_ reason: String) -> ThemeError {
                ThemeError(file: file, line: lineNumber, key: key, reason: reason)
            }
            guard !value.isEmpty else { throw fail("missing value") }

            switch section {
            case .palette:
                guard isIdentifier(key) else { throw fail("palette names may contain only letters, digits, '-' and '_'") }
                guard definition.palette[key] == nil else { throw fail("defined twice") }
                definition.palette[key] = .init(value: try colorSpec(value, fail: fail), line: lineNumber)
            case .top where key == "inherits":
                guard isIdentifier(value) else { throw fail("'\(value)' is not a theme name") }
                definition.inherits = .init(value: value, line: lineNumber)
            case .top where key == "name":
                definition.displayName = value
            case .top where key == "exact-colors":
                switch value.lowercased() {
                case "true", "yes", "on": definition.exactColors = .init(value: true, line: lineNumber)
                case "false", "no", "off": definition.exactColors = .init(value: false, line: lineNumber)
                default: throw fail("expected true or false")
                }
            case .top, .roles:
                guard let role = ThemeRole(rawValue: key) else {
                    let known = ThemeRole.allCases.map(\.rawValue).joined(separator: ", ")
                    throw fail(section == .top
                        ? "unknown key (expected name, inherits, exact-colors or a role: \(known))"
                        : "unknown role (known roles: \(known))")
                }
                guard definition.roles[role] == nil else { throw fail("defined twice") }
                definition.roles[role] = .init(value: try styleSpec(value, fail: fail), line: lineNumber)
            }
        }
        return definition
    }

    /// `fg:COLOR bg:COLOR attr...`; `plain`/`none` means no attributes.
    static func styleSpec(_ value: String, fail: (String) -> ThemeError) throws(ThemeError) -> ThemeDefinition.StyleSpec {
        var spec = ThemeDefinition.StyleSpec(foreground: nil, background: nil, attributes: [])
        for token in value.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
            let lower = token.lowercased()
            if lower.hasPrefix("fg:") {
                guard spec.foreground == nil else { throw fail("fg given twice") }
                spec.foreground = try colorSpec(String(token.dropFirst(3)), fail: fail)
            } else if lower.hasPrefix("bg:") {
                guard spec.background == nil else { throw fail("bg given twice") }
                spec.background = try colorSpec(String(token.dropFirst(3)), fail: fail)
            } else if lower == "plain" || lower == "none" {
                continue
            } else if let attribute = TextAttributes.names.first(where: { $0.0 == lower })?.1 {
                spec.attributes.insert(attribute)
            } else {
                throw fail("unknown attribute '\(token)' (expected fg:COLOR, bg:COLOR, bold, dim, underline, reverse, italic, blink or plain)")
            }
        }
        return spec
    }

    /// `#rrggbb`, `#rgb`, `default`, an ANSI name, `0`–`255`, or a palette name.
    static func colorSpec(_ text: String, fail: (String) -> ThemeError) throws(ThemeError) -> ThemeDefinition.ColorSpec {
        guard !text.isEmpty else { throw fail("missing colour") }
        if text.hasPrefix("#") {
            guard let rgb = RGB(hex: text) else { throw fail("bad colour '\(text)' (expected #rrggbb or #rgb)") }
            return .literal(.rgb(rgb))
        }
        if text.lowercased() == "default" { return .literal(.default) }
        if let number = Int(text) {
            guard (0...255).contains(number) else { throw fail("bad colour '\(text)' (palette index must be 0–255)") }
            return .literal(.indexed(UInt8(number)))
        }
        guard isIdentifier(text) else { throw fail("bad colour '\(text)'") }
        return .reference(text)
    }

    static func isIdentifier(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_"
        }
    }

    /// `#` starts a comment at the start of a line or when followed by
    /// whitespace (or the end of the line); `#` followed by anything else is
    /// part of a value such as `#ff8800`.
    static func stripComment(_ line: Substring) -> Substring {
        var index = line.startIndex
        while index < line.endIndex {
            if line[index] == "#" {
                let next = line.index(after: index)
                let atStart = line[..<index].allSatisfy(\.isWhitespace)
                if atStart || next == line.endIndex || line[next].isWhitespace {
                    return line[..<index]
                }
            }
            index = line.index(after: index)
        }
        return line
    }
}

extension StringProtocol {
    func trimmingWhitespace() -> String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s.removeFirst() }
        while let l = s.last, l.isWhitespace { s.removeLast() }
        return String(s)
    }
}
