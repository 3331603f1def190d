import Foundation

/// How many times each distinct text occurs, counted from UTF-8 bytes as a statement
/// hands them over: no `String` is made per row, only one per distinct text at the end.
/// Texts are equal when their bytes are (SQLite's BINARY collation).
///
/// An open-addressing table (linear probing, at most half full); `add` is O(length)
/// expected.
struct TextCounts {
    private struct Entry {
        var bytes: [UInt8]
        let hash: UInt64
        var count: Int
    }
    private var entries: [Entry] = []
    /// Index into `entries` + 1 per slot; 0 for an empty slot.
    private var slots = [Int32](repeating: 0, count: 16)

    mutating func add(_ bytes: UnsafeBufferPointer<UInt8>) {
        let hash = Self.hash(bytes)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let e = Int(slots[slot])
            if e == 0 { break }
            if entries[e - 1].hash == hash, Self.equal(entries[e - 1].bytes, bytes) {
                entries[e - 1].count += 1
                return
            }
            slot = (slot + 1) & mask
        }
        entries.append(Entry(bytes: Array(bytes), hash: hash, count: 1))
        slots[slot] = Int32(entries.count)
        if entries.count * 2 > slots.count { grow() }
    }

    /// Each distinct text (decoded as UTF-8) and its count, in the order first seen.
    var counts: [(text: String, count: Int)] {
        entries.map { (String(decoding: $0.bytes, as: UTF8.self), $0.count) }
    }

    private mutating func grow() {
        slots = [Int32](repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for (i, e) in entries.enumerated() {
            var slot = Int(truncatingIfNeeded: e.hash) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(i + 1)
        }
    }

    private static func equal(_ a: [UInt8], _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        guard !a.isEmpty, let q = b.baseAddress else { return true }
        return a.withUnsafeBufferPointer { memcmp($0.baseAddress!, q, a.count) == 0 }
    }

    /// FNV-1a, then a final mix so the low bits (the slot) depend on every byte.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        h ^= h >> 33
        h &*= 0xff51_afd7_ed55_8ccd
        return h ^ (h >> 33)
    }
}
