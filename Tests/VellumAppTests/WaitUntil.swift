import Foundation

/// Yields the main actor (as the event loop does) until `condition` holds or
/// `seconds` pass; returns whether it held.
@MainActor
func waitUntil(_ seconds: Double = 5, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        try? await Task.sleep(nanoseconds: 10_000_000)
        await Task.yield()
    }
    return condition()
}
