import Foundation
import Testing
@testable import VellumStore

/// The keys of one history row's objects, as stored in `_vellum_changes.pks`: 8-byte
/// little-endian integers, read back by other processes (and by older Vellums).
@Suite struct HistoryKeyPackingTests {
    @Test func keysPackAsLittleEndianBytesAndUnpackToTheSameKeys() {
        #expect(HistoryWriter.pack([]) == Data())
        #expect(HistoryWriter.pack([1, 0x0102_0304_0506_0708]) == Data([1, 0, 0, 0, 0, 0, 0, 0, 8, 7, 6, 5, 4, 3, 2, 1]))
        #expect(HistoryWriter.pack([-1]) == Data(repeating: 0xff, count: 8))
        var rng = SplitMix64(seed: 19)
        for n in [1, 2, 7, 64, 1000] {
            let keys = (0..<n).map { _ in Int64.random(in: .min ... .max, using: &rng) }
            #expect(HistoryWriter.unpack(HistoryWriter.pack(keys)) == keys)
        }
    }
}
