/// Turns a `ThemeDefinition` plus its ancestors into a complete `Theme`.
///
/// Why late binding: palettes are merged (ancestor first, descendant wins)
/// before any role colour is looked up, so a child theme can restyle an
/// entire parent by overriding palette names only.
public enum ThemeResolver {
    /// - Parameter lookup: finds a definition by theme name (nil if none).
    public static func resolve(
        _ leaf: ThemeDefinition,
        lookup: (String) throws(ThemeError) -> ThemeDefinition?
    ) throws(ThemeError) -> Theme {
        // Collect the chain leaf → root, rejecting cycles and unknown parents.
        var chain = [leaf]
        var seen: Set<String> = [leaf.name.lowercased()]
        var current = leaf
        while let parent = current.inherits {
            let parentName = parent.value
            if seen.contains(parentName.lowercased()) {
                throw ThemeError(file: current.file, line: parent.line, key: "inherits",
                                 reason: "inheritance cycle: \((chain.map(\.name) + [parentName]).joined(separator: " -> "))")
            }
            guard let next = try lookup(parentName) else {
                throw ThemeError(file: current.file, line: parent.line, key: "inherits",
                                 reason: "unknown theme '\(parentName)'")
            }
            seen.insert(parentName.lowercased())
            chain.append(next)
            current = next
        }

        // Merge root first so descendants override.
        var palette: [String: (ThemeDefinition.ColorSpec, file: String, line: Int)] = [:]
        var roles: [ThemeRole: (ThemeDefinition.StyleSpec, file: String, line: Int)] = [:]
        for definition in chain.reversed() {
            for (name, entry) in definition.palette {
                palette[name] = (entry.value, definition.file, entry.line)
            }
            for (role, entry) in definition.roles {
                roles[role] = (entry.value, definition.file, entry.line)
            }
        }

        func color(_ spec: ThemeDefinition.ColorSpec?, file: String, line: Int, key: String) throws(ThemeError) -> Color {
            var spec = spec ?? .literal(.default)
            var visited: Set<String> = []
            while true {
                switch spec {
                case .literal(let value):
                    return value
                case .reference(let name):
                    if let entry = palette[name] {
                        guard visited.insert(name).inserted else {
                            throw ThemeError(file: file, line: line, key: key, reason: "palette entry '\(name)' refers to itself")
                        }
                        spec = entry.0
                    } else if let ansi = ANSIColor.named(name) {
                        return .ansi(ansi)
                    } else {
                        throw ThemeError(file: file, line: line, key: key,
                                         reason: "unknown colour '\(name)' (not a palette name, ANSI colour name, #rrggbb, 0–255 or default)")
                    }
                }
            }
        }

        // Validate every palette entry, even unused ones, so typos surface.
        for (name, entry) in palette.sorted(by: { $0.key < $1.key }) {
            _ = try color(entry.0, file: entry.file, line: entry.line, key: name)
        }

        var styles: [ThemeRole: Style] = [:]
        for role in ThemeRole.allCases {
            guard let (spec, file, line) = roles[role] else {
                throw ThemeError(file: leaf.file, line: leaf.inherits?.line ?? 1, key: role.rawValue,
                                 reason: "required role is not defined here or in any inherited theme")
            }
            styles[role] = Style(
                foreground: try color(spec.foreground, file: file, line: line, key: role.rawValue),
                background: try color(spec.background, file: file, line: line, key: role.rawValue),
                attributes: spec.attributes)
        }
        let exactColors = chain.lazy.compactMap(\.exactColors).first?.value ?? false
        return Theme(complete: styles, name: leaf.name, displayName: leaf.displayName, exactColors: exactColors)
    }
}
