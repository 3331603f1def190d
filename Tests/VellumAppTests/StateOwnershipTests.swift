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

    static func outsideTheReducer() throws -> [(file: String, text: String)] {
        try FileManager.default.contentsOfDirectory(atPath: sources.path)
            .filter { $0.hasSuffix(".swift") && !$0.hasPrefix("Reducer") && $0 != "AppState.swift" }
            .sorted()
            .map { ($0, try String(contentsOf: sources.appendingPathComponent($0), encoding: .utf8)) }
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
