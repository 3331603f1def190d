import Foundation
import Testing
import VellumTestSupport
@testable import VellumStore

/// `RadixSort` orders as `Array.sort` does, for integer and double keys.
@Suite struct RadixSortTests {
    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func integersSortAsArraySortDoes(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        let n = Int.random(in: 0...5_000, using: &rng)
        // Narrow ranges (most bytes shared, skipped) and the full range.
        let range: ClosedRange<Int64> = [-3...3, 0...255, -70_000...70_000, Int64.min...Int64.max, 0...1_000_000][Int(seed) % 5]
        let values = (0..<n).map { _ in Int64.random(in: range, using: &rng) }
        var keys = values.map(RadixSort.key)
        RadixSort.sort(&keys)
        #expect(keys.map(RadixSort.integer) == values.sorted(), "seed \(seed)")
    }

    @Test(arguments: [6, 7, 8] as [UInt64])
    func doublesSortAsArraySortDoesWithZerosAsOneValue(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        let specials: [Double] = [0, -0.0, .infinity, -.infinity, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .greatestFiniteMagnitude, -1, 1]
        let values = (0..<3_000).map { i -> Double in
            i % 10 == 0 ? specials.randomElement(using: &rng)! : Double.random(in: -1e6...1e6, using: &rng)
        }
        var keys = values.map(RadixSort.key)
        RadixSort.sort(&keys)
        let sorted = keys.map(RadixSort.double)
        #expect(sorted == values.sorted(), "seed \(seed)")
        #expect(!sorted.contains { $0 == 0 && $0.sign == .minus }, "−0 is read back as 0")
        #expect(RadixSort.key(.nan) > RadixSort.key(Double.infinity))
    }

    @Test func keysOrderAsTheirValues() {
        #expect(RadixSort.key(Int64(-1)) < RadixSort.key(Int64(0)) && RadixSort.key(Int64.min) < RadixSort.key(Int64.max))
        #expect(RadixSort.key(-2.5) < RadixSort.key(-1.0) && RadixSort.key(-0.0) == RadixSort.key(0.0) && RadixSort.key(0.0) < RadixSort.key(1e-300))
    }
}
