import Testing
@testable import VellumStore

@Suite struct PagedKeyTableTests {
    /// Random inserts, replacements and removals over dense, sparse, negative and
    /// extreme keys, mirrored on a Dictionary; a copy taken midway stays as it was.
    @Test func behavesLikeADictionaryAndCopiesAreIndependent() {
        let seed = SeededRandom.seedFromEnvironment()
        var rng = SeededRandom(seed: seed)
        let table = PagedKeyTable<String>()
        var model: [Int64: String] = [:]
        var snapshot: (PagedKeyTable<String>, [Int64: String])?
        func key() -> Int64 {
            switch Int.random(in: 0..<8, using: &rng) {
            case 0: return Int64.random(in: Int64.min...Int64.max, using: &rng)
            case 1: return [Int64.min, Int64.max, 0, -1, 63, 64, -64, -65][Int.random(in: 0..<8, using: &rng)]
            default: return Int64.random(in: -100...5_000, using: &rng)
            }
        }
        for step in 0..<40_000 {
            let k = key()
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<5:
                let v = "v\(step)"
                #expect(table.insert(v, for: k) == model.updateValue(v, forKey: k), "seed \(seed) step \(step)")
            case 5..<8:
                table.remove(k)
                model[k] = nil
            default:
                #expect(table.value(for: k) == model[k], "seed \(seed) step \(step) key \(k)")
            }
            if step == 20_000 { snapshot = (table.copy(), model) }
            if step % 4_999 == 0 {
                #expect(table.count == model.count, "seed \(seed) step \(step)")
                var seen: [Int64: String] = [:]
                table.forEach { seen[$0] = $1 }
                #expect(seen == model, "seed \(seed) step \(step)")
            }
        }
        if let (copy, expected) = snapshot {
            var seen: [Int64: String] = [:]
            copy.forEach { seen[$0] = $1 }
            #expect(seen == expected && copy.count == expected.count, "seed \(seed): the copy changed with the original")
        }
    }
}
