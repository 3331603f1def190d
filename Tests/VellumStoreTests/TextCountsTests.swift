import Foundation
import Testing
import VellumTestSupport
@testable import VellumStore

/// `TextCounts` counts texts by their bytes as a dictionary of their bytes would.
@Suite struct TextCountsTests {
    @Test(arguments: [1, 2, 3] as [UInt64])
    func countsAsADictionaryOfBytesDoes(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        let alphabet: [String] = ["", "a", "é", "e\u{301}", "🙂", "ab", "ba", "\u{0}"]
        let distinct = [3, 60, 5_000][Int(seed) % 3]
        let pool = (0..<distinct).map { i in (0..<Int.random(in: 0...4, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }.joined() + (i % 2 == 0 ? "" : "\(i)") }
        var counts = TextCounts()
        var expected: [[UInt8]: Int] = [:]
        for _ in 0..<20_000 {
            var text = pool.randomElement(using: &rng)!
            expected[Array(text.utf8), default: 0] += 1
            text.withUTF8 { counts.add($0) }
        }
        let got = counts.counts
        #expect(got.count == expected.count, "seed \(seed)")
        for (text, n) in got { #expect(expected[Array(text.utf8)] == n, "seed \(seed): \(text.debugDescription)") }
        #expect(got.reduce(0) { $0 + $1.count } == 20_000)
    }
}
