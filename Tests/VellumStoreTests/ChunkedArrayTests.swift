import Testing
@testable import VellumStore

@Suite struct ChunkedArrayTests {
    /// Random inserts, removals, appends and writes, mirrored on a plain Array.
    @Test func behavesLikeAnArray() {
        let seed = SeededRandom.seedFromEnvironment()
        var rng = SeededRandom(seed: seed)
        var chunked = ChunkedArray<Int>()
        var model: [Int] = []
        for step in 0..<20_000 {
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<4:
                let i = Int.random(in: 0...model.count, using: &rng)
                chunked.insert(step, at: i); model.insert(step, at: i)
            case 4..<6 where !model.isEmpty:
                let i = Int.random(in: 0..<model.count, using: &rng)
                #expect(chunked.remove(at: i) == model.remove(at: i), "seed \(seed)")
            case 6..<8:
                chunked.append(step); model.append(step)
            case 8 where !model.isEmpty:
                let i = Int.random(in: 0..<model.count, using: &rng)
                chunked[i] = -step; model[i] = -step
            default:
                break
            }
            if step % 997 == 0 {
                #expect(Array(chunked) == model, "seed \(seed) step \(step)")
                #expect(chunked.indices.map { chunked[$0] } == model, "seed \(seed) step \(step)")
            }
        }
        #expect(Array(chunked) == model)
        #expect(chunked.count == model.count)
    }
}
