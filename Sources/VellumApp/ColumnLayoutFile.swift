import Foundation

/// Where column layouts are kept: one JSON file per store in the user's state
/// directory (`$XDG_STATE_HOME/vellum/columns/`, else `~/.local/state/...`),
/// never in the store. Written whole (temp file + rename).
public struct ColumnLayoutFile: Sendable {
    public let url: URL

    public init(url: URL) { self.url = url }

    /// The file for the store at `storePath`, or nil when there is no state directory.
    public init?(environment: [String: String], storePath: String) {
        guard let base = StateDirectory.url(environment: environment) else { return nil }
        let absolute = URL(fileURLWithPath: storePath).standardizedFileURL.path
        // The store's name for people, a hash of its full path so two demo.sqlite files differ.
        let name = URL(fileURLWithPath: absolute).lastPathComponent + "-" + Self.hash(absolute) + ".json"
        url = base.appendingPathComponent("vellum/columns").appendingPathComponent(name)
    }

    /// Every entity's layout (empty when the file is missing or unreadable: layouts are a convenience).
    public func load() -> [String: ColumnLayout] {
        guard let data = try? Data(contentsOf: url) else { return [:] }
        return (try? JSONDecoder().decode([String: ColumnLayout].self, from: data)) ?? [:]
    }

    /// Replaces one entity's layout in the file.
    public func save(_ layout: ColumnLayout, for entity: String) throws {
        var all = load()
        all[entity] = layout.isEmpty ? nil : layout
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let data = try encoder.encode(all)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url, options: .atomic)
    }

    /// FNV-1a, 64 bits, as hex: stable across runs (Swift's `hashValue` is not).
    static func hash(_ text: String) -> String {
        var h: UInt64 = 0xcbf29ce484222325
        for byte in text.utf8 { h = (h ^ UInt64(byte)) &* 0x100000001b3 }
        return String(h, radix: 16)
    }
}
