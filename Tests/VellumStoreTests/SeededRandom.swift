import Foundation

/// SplitMix64: a small seeded generator so randomized tests are reproducible.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The seed from `VELLUM_SEED` when set (to replay a failure), else a fresh one.
    static func seedFromEnvironment() -> UInt64 {
        if let s = ProcessInfo.processInfo.environment["VELLUM_SEED"], let v = UInt64(s) { return v }
        return UInt64.random(in: 1...UInt64.max / 2)
    }
}
