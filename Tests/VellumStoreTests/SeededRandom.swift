import Foundation
import VellumStore

/// Randomized tests use VellumStore's SplitMix64, seeded from the environment to replay a failure.
typealias SeededRandom = SplitMix64

extension SplitMix64 {
    /// The seed from `VELLUM_SEED` when set (to replay a failure), else a fresh one.
    static func seedFromEnvironment() -> UInt64 {
        if let s = ProcessInfo.processInfo.environment["VELLUM_SEED"], let v = UInt64(s) { return v }
        return UInt64.random(in: 1...UInt64.max / 2)
    }
}
