import Foundation
import Testing

/// Who may write `AppState`: the reducer (`Reducer*.swift`) and `AppState` itself.
/// The session executes effects and feeds their results back as inputs; the writes
/// it still makes beside the reducer may only go down (issue #12 takes them to zero).
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

    /// A ratchet: lower it when writes move into the reducer, never raise it.
    static let remainingWrites = 66

    @Test func writesBesideTheReducerOnlyGoDown() throws {
        let count = try Self.outsideTheReducer().reduce(0) { $0 + (try Self.writes(in: $1.text).count) }
        #expect(count <= Self.remainingWrites, "state writes outside the reducer: \(count)")
        print("state writes outside the reducer: \(count)")
    }

    @Test func theScannerSeesWrites() throws {
        let sample = "state.mode = .browse; state.flashes[id] = d; state.backStack.append(p); state.setStatus(x); if state.mode == .edit {}"
        #expect(try Self.writes(in: sample).count == 4)
        #expect(try Self.writes(in: sample, field: "flashes").count == 1)
    }
}
