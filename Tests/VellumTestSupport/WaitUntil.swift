import Foundation

/// Yields the main actor (as the event loop and the main queue's merges need) until
/// `condition` holds or `timeout` passes; returns whether it held.
@MainActor
public func waitUntil(timeout: TimeInterval = 10, _ condition: () throws -> Bool) async rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return true }
        try? await Task.sleep(nanoseconds: 2_000_000)
    }
    return try condition()
}
