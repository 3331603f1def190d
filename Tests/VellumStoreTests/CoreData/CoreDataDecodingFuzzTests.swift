import Foundation
import Testing
@testable import VellumStore

/// Seeded random damage to a real model cache: every decoder either decodes or throws a
/// `StoreError`; none traps. Replay a failure with VELLUM_SEED.
@Suite struct CoreDataDecodingFuzzTests {
    @Test func damagedModelCachesNeverCrash() throws {
        let copy = try CoreDataFixtureCopy("SampleModel-v1.sqlite")
        let file = try CoreDataStoreFile(path: copy.url.path)
        let plist = [UInt8](try #require(try file.modelCacheArchive()))
        let compressed = [UInt8](try #require(try file.compressedModelCache()))
        let seed = SeededRandom.seedFromEnvironment()
        var random = SeededRandom(seed: seed)
        var refused = 0
        for round in 0..<1500 {
            var bytes = round.isMultiple(of: 5) ? compressed : plist
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                let i = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes[i] = UInt8.random(in: 0...255, using: &random)
                case 1: bytes[i] ^= 1 << UInt8.random(in: 0...7, using: &random)
                default: bytes.removeSubrange(i..<min(bytes.count, i + Int.random(in: 1...16, using: &random)))
                }
                if bytes.isEmpty { bytes = [0] }
            }
            do {
                let data = round.isMultiple(of: 5) ? try RawInflate.inflate(Data(bytes), what: "fuzz") : Data(bytes)
                let archive = try KeyedArchive(data: data, what: "fuzz")
                _ = try archive.decodedRoot()
                _ = try ModelCacheDecoder.decode(archive)
            } catch {
                guard case .malformedCoreData = error else {
                    Issue.record("seed \(seed), round \(round): unexpected error \(error)")
                    return
                }
                refused += 1
            }
        }
        #expect(refused > 0, "seed \(seed): no damaged input was refused")
        #expect(copy.originalUnchanged())
    }
}
