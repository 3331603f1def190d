import Foundation

/// What the browser remembers for the user across stores and runs (today the detail
/// pane's size), in the user's state directory (`$XDG_STATE_HOME/vellum/browser.json`,
/// else `~/.local/state/...`), never in a store. Written whole (temp file + rename).
public struct BrowserSettings: Sendable, Equatable, Codable {
    /// How far `{`/`}` moved the detail pane's edge (`Layout.detailStepRange`).
    public var detailSteps: Int?

    public init(detailSteps: Int? = nil) { self.detailSteps = detailSteps }
}

public struct BrowserSettingsFile: Sendable {
    public let url: URL

    public init(url: URL) { self.url = url }

    /// The file in the user's state directory, or nil when there is none.
    public init?(environment: [String: String]) {
        guard let base = StateDirectory.url(environment: environment) else { return nil }
        url = base.appendingPathComponent("vellum/browser.json")
    }

    /// The settings (defaults when the file is missing or unreadable: settings are a convenience).
    public func load() -> BrowserSettings {
        guard let data = try? Data(contentsOf: url) else { return BrowserSettings() }
        return (try? JSONDecoder().decode(BrowserSettings.self, from: data)) ?? BrowserSettings()
    }

    public func save(_ settings: BrowserSettings) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try encoder.encode(settings).write(to: url, options: .atomic)
    }
}

/// The user's state directory (XDG base directories).
enum StateDirectory {
    static func url(environment: [String: String]) -> URL? {
        if let xdg = environment["XDG_STATE_HOME"], !xdg.isEmpty { return URL(fileURLWithPath: xdg) }
        if let home = environment["HOME"], !home.isEmpty { return URL(fileURLWithPath: home).appendingPathComponent(".local/state") }
        return nil
    }
}
