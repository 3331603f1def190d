import Foundation
import Synchronization

/// Makes the UUIDs of temporary object IDs: a random per-process prefix and a
/// counter. Unique within the process, collision-free across processes in
/// practice, and far cheaper than `UUID()` (one system random call per object).
enum TemporaryKey {
    private static let prefix: UInt64 = UInt64.random(in: 0...UInt64.max)
    private static let counter = Atomic<UInt64>(0)

    /// A new key and its counter (increasing within the process).
    static func next() -> (UUID, UInt64) {
        let n = counter.wrappingAdd(1, ordering: .relaxed).newValue
        let p = prefix
        return (UUID(uuid: (UInt8(truncatingIfNeeded: p >> 56), UInt8(truncatingIfNeeded: p >> 48), UInt8(truncatingIfNeeded: p >> 40),
                           UInt8(truncatingIfNeeded: p >> 32), UInt8(truncatingIfNeeded: p >> 24), UInt8(truncatingIfNeeded: p >> 16),
                           0x40 | UInt8(truncatingIfNeeded: p >> 8) & 0x0f, UInt8(truncatingIfNeeded: p),
                           0x80 | UInt8(truncatingIfNeeded: n >> 56) & 0x3f, UInt8(truncatingIfNeeded: n >> 48), UInt8(truncatingIfNeeded: n >> 40),
                           UInt8(truncatingIfNeeded: n >> 32), UInt8(truncatingIfNeeded: n >> 24), UInt8(truncatingIfNeeded: n >> 16),
                           UInt8(truncatingIfNeeded: n >> 8), UInt8(truncatingIfNeeded: n))), n)
    }

    /// The counter of a key made by this process, or nil for any other UUID.
    static func counter(of uuid: UUID) -> UInt64? {
        let b = uuid.uuid
        let p = prefix
        let madeHere = b.0 == UInt8(truncatingIfNeeded: p >> 56) && b.1 == UInt8(truncatingIfNeeded: p >> 48)
            && b.2 == UInt8(truncatingIfNeeded: p >> 40) && b.3 == UInt8(truncatingIfNeeded: p >> 32)
            && b.4 == UInt8(truncatingIfNeeded: p >> 24) && b.5 == UInt8(truncatingIfNeeded: p >> 16)
            && b.6 == 0x40 | UInt8(truncatingIfNeeded: p >> 8) & 0x0f && b.7 == UInt8(truncatingIfNeeded: p)
        guard madeHere else { return nil }
        // Read without an array: an unsaved insert is looked up by this counter.
        let high = UInt64(b.8 & 0x3f) << 56 | UInt64(b.9) << 48 | UInt64(b.10) << 40 | UInt64(b.11) << 32
        return high | UInt64(b.12) << 24 | UInt64(b.13) << 16 | UInt64(b.14) << 8 | UInt64(b.15)
    }
}
