import Foundation
import Testing

/// Issue 12 asks for one piece of signal handling: `SignalObserver` (VellumTerminal).
/// The browser's loop watched SIGCONT with a dispatch source of its own beside it.
@Suite struct SignalHandlingTests {
    static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    /// Swift sources that observe or handle signals themselves, by path under Sources/
    /// (putting a signal back to its default action, as `vellum demo-writer` does, handles nothing).
    static func signalCode() throws -> [String] {
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []
        let regex = try NSRegularExpression(pattern: #"makeSignalSource|\bsigaction\s*\(|\bsignal\s*\(\s*SIG\w+\s*,(?!\s*SIG_DFL\b)"#)
        return try files.filter { $0.hasSuffix(".swift") }.sorted().filter { path in
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        }
    }

    @Test func onlyTheSignalObserverObservesSignals() throws {
        #expect(try Self.signalCode() == ["VellumTerminal/SignalObserver.swift"])
    }
}
