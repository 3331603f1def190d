import Foundation
import Testing

/// Who may write `AppState`: the reducer (`Reducer*.swift`) and `AppState` itself.
/// The `EffectRunner` executes effects and feeds their results back as inputs
/// (`EffectResult`); it can read the state but holds no way to write it.
@Suite struct StateOwnershipTests {
    static let sources: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/VellumApp")

    /// Fields that only inputs change (store events, the clock, the terminal, the picker).
    static let reducerOnly = ["flashes", "lastChange", "lastWriter", "lastWriteDate", "entityCounts", "themeName",
                              "terminalTooSmall", "ignoredKeys", "pageSize", "layout", "picker", "pickerTitle"]

    /// Writes of `state.<field>` outside the reducer: assignments, compound
    /// assignments, subscripts and mutating calls.
    static func writes(in text: String, field: String? = nil) throws -> [String] {
        var pattern = #"\bstate\.("# + (field ?? "[A-Za-z]+") + #")\b(\[[^\]]*\])?\s*(=(?!=)|\+=|-=|\.(append|removeAll|popLast)\b|\.[a-z]+\s*=(?!=))"#
        if field == nil { pattern += #"|\bstate\.(setStatus|clamp|expireFlashes)\b"# }
        let regex = try NSRegularExpression(pattern: pattern)
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range, in: text).map { String(text[$0]) }
        }
    }

    /// Every Swift file under Sources/VellumApp, subfolders (`Commands/`) too, by its path there.
    static func allSources() throws -> [String] {
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []
        return files.filter { $0.hasSuffix(".swift") }.sorted()
    }

    static func outsideTheReducer() throws -> [(file: String, text: String)] {
        try allSources()
            .filter { path in
                let name = (path as NSString).lastPathComponent
                return !name.hasPrefix("Reducer") && name != "AppState.swift"
            }
            .map { ($0, try String(contentsOf: sources.appendingPathComponent($0), encoding: .utf8)) }
    }

    /// The scan covered only the top folder, so a write in `Commands/` went unseen.
    @Test func theScanCoversEveryFolder() throws {
        let scanned = try Self.outsideTheReducer().map(\.file)
        #expect(scanned.contains("Commands/CommandTable.swift") && scanned.contains("Commands/KeyMap.swift"), "\(scanned)")
        #expect(scanned.contains("EventLoop.swift") && !scanned.contains { $0.hasSuffix("Reducer.swift") })
    }

    @Test func inputFieldsAreWrittenOnlyByTheReducer() throws {
        for (file, text) in try Self.outsideTheReducer() {
            for field in Self.reducerOnly {
                #expect(try Self.writes(in: text, field: field).isEmpty, "\(file) writes state.\(field)")
            }
        }
    }

    /// The effect runner and the loop report what they found as inputs; none writes the state.
    @Test func nothingButTheReducerWritesTheState() throws {
        for (file, text) in try Self.outsideTheReducer() {
            let writes = try Self.writes(in: text)
            #expect(writes.isEmpty, "\(file) writes the state beside the reducer: \(writes)")
        }
    }

    @Test func theScannerSeesWrites() throws {
        let sample = "state.mode = .browse; state.flashes[id] = d; state.backStack.append(p); state.setStatus(x); if state.mode == .edit {}"
        #expect(try Self.writes(in: sample).count == 4)
        #expect(try Self.writes(in: sample, field: "flashes").count == 1)
    }
}
