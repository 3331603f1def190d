import Foundation

/// Finds theme files by name and resolves them into `Theme`s.
///
/// Search order for a name (first match wins):
/// 1. built-in directories: `$VELLUM_THEMES_DIR`, then `Themes/` next to the
///    executable, `../share/vellum/Themes`, and `Themes/` in up to five
///    ancestor directories of the executable (covers `.build/debug/vellum`);
/// 2. the copies embedded in the binary (so the app works anywhere);
/// 3. the user directory `$XDG_CONFIG_HOME/vellum/themes`
///    (default `~/.config/vellum/themes`).
/// Shipped names therefore cannot be shadowed by user files; a user theme
/// customises one by choosing a new name and `inherits = <shipped name>`.
public struct ThemeLoader: Sendable {
    public var builtInDirectories: [String]
    public var useEmbedded: Bool
    public var userDirectory: String?

    public static let fileExtension = "theme"
    public static let defaultThemeName = "default"
    public static let monochromeThemeName = "monochrome"

    public init(builtInDirectories: [String], useEmbedded: Bool = true, userDirectory: String?) {
        self.builtInDirectories = builtInDirectories
        self.useEmbedded = useEmbedded
        self.userDirectory = userDirectory
    }

    /// Standard search paths derived from the environment and executable.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment,
                executablePath: String? = ThemeLoader.currentExecutablePath()) {
        var dirs: [String] = []
        if let dir = environment["VELLUM_THEMES_DIR"], !dir.isEmpty { dirs.append(dir) }
        if let exe = executablePath {
            var dir = URL(fileURLWithPath: exe).deletingLastPathComponent().standardizedFileURL
            dirs.append(dir.appendingPathComponent("../share/vellum/Themes").standardizedFileURL.path)
            for _ in 0..<6 {
                dirs.append(dir.appendingPathComponent("Themes").path)
                dir = dir.deletingLastPathComponent()
            }
        }
        let fm = FileManager.default
        var isDir: ObjCBool = false
        let existing = dirs.filter { fm.fileExists(atPath: $0, isDirectory: &isDir) && isDir.boolValue }
        var unique: [String] = []
        for d in existing where !unique.contains(d) { unique.append(d) }

        let user: String?
        if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty {
            user = xdg + "/vellum/themes"
        } else if let home = environment["HOME"], !home.isEmpty {
            user = home + "/.config/vellum/themes"
        } else {
            user = nil
        }
        self.init(builtInDirectories: unique, useEmbedded: true, userDirectory: user)
    }

    /// Path of the running executable (via /proc/self/exe on Linux).
    public static func currentExecutablePath() -> String? {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return path
        }
        return Bundle.main.executablePath ?? CommandLine.arguments.first
    }

    /// Loads and fully resolves the theme called `name`.
    public func load(named name: String) throws(ThemeError) -> Theme {
        guard let definition = try definition(named: name) else {
            throw ThemeError(file: name, line: 0, key: nil,
                             reason: "no theme named '\(name)' (available: \(availableThemeNames().joined(separator: ", ")))")
        }
        return try ThemeResolver.resolve(definition) { (parent: String) throws(ThemeError) -> ThemeDefinition? in
            try self.definition(named: parent)
        }
    }

    /// Loads `name`, falling back to the embedded default (or monochrome for
    /// colourless terminals) when it is missing or broken. The error, if
    /// any, is returned so the app can show it instead of failing to start.
    public func loadWithFallback(named name: String, capability: ColorCapability) -> (Theme, ThemeError?) {
        let wanted = capability == .none && name == Self.defaultThemeName ? Self.monochromeThemeName : name
        do {
            let theme = try load(named: wanted)
            return (capability == .none ? theme.withoutColors : theme, nil)
        } catch {
            let fallbackName = capability == .none ? Self.monochromeThemeName : Self.defaultThemeName
            let embedded = ThemeLoader(builtInDirectories: [], useEmbedded: true, userDirectory: nil)
            let fallback = (try? embedded.load(named: fallbackName)) ?? Self.emergencyTheme
            return (capability == .none ? fallback.withoutColors : fallback, error)
        }
    }

    /// Last resort if even the embedded themes failed (should never happen;
    /// a unit test parses every embedded theme).
    static let emergencyTheme: Theme = {
        var styles: [ThemeRole: Style] = [:]
        for role in ThemeRole.allCases { styles[role] = .plain }
        styles[.selection] = Style(attributes: .reverse)
        styles[.cursor] = Style(attributes: [.reverse, .bold])
        styles[.status] = Style(attributes: .reverse)
        styles[.statusText] = Style(attributes: [.reverse, .bold])
        return Theme(complete: styles, name: "emergency", displayName: "Emergency")
    }()

    /// The parsed but unresolved definition, or nil if no source has `name`.
    public func definition(named name: String) throws(ThemeError) -> ThemeDefinition? {
        // Names are plain identifiers so they can never escape a directory.
        guard ThemeParser.isIdentifier(name) else { return nil }
        let fileName = "\(name).\(Self.fileExtension)"
        for dir in builtInDirectories {
            if let def = try parseFile(at: dir + "/" + fileName, name: name) { return def }
        }
        if useEmbedded, let text = EmbeddedThemes.files[name] {
            return try ThemeParser.parse(text, file: "<built-in>/" + fileName, name: name)
        }
        if let dir = userDirectory, let def = try parseFile(at: dir + "/" + fileName, name: name) {
            return def
        }
        return nil
    }

    /// Every theme name available from any source, sorted.
    public func availableThemeNames() -> [String] {
        var names = Set<String>()
        if useEmbedded { names.formUnion(EmbeddedThemes.files.keys) }
        for dir in builtInDirectories + (userDirectory.map { [$0] } ?? []) {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
            for entry in entries where entry.hasSuffix("." + Self.fileExtension) {
                let name = String(entry.dropLast(Self.fileExtension.count + 1))
                if ThemeParser.isIdentifier(name) { names.insert(name) }
            }
        }
        return names.sorted()
    }

    private func parseFile(at path: String, name: String) throws(ThemeError) -> ThemeDefinition? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        // Own reasons, not Foundation's error text (`Error Domain=…` must never reach the screen).
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ThemeError(file: path, line: 0, key: nil, reason: "cannot read file (a directory, or no read permission)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ThemeError(file: path, line: 0, key: nil, reason: "cannot read file (not valid UTF-8 text)")
        }
        return try ThemeParser.parse(text, file: path, name: name)
    }
}
