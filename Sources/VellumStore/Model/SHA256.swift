import CSHA256
import Foundation

/// A small SHA-256 (FIPS 180-4) for model version hashes; Foundation on Linux has no CryptoKit.
/// Blocks are compressed by the CPU's SHA instructions when it has them (`CSHA256`), by
/// the Swift code below otherwise; both give the same digest (`SHA256KnownAnswerTests`).
enum SHA256 {
    /// Whether this CPU's SHA instructions are used.
    static let usesHardware = vellum_sha256_hardware_available() != 0

    /// The round constants K, shared with the hardware path.
    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    private static let initialState: [UInt32] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]

    static func hex(_ text: String) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for b in digest(Array(text.utf8)) { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 0x0F)]) }
        return String(decoding: out, as: UTF8.self)
    }

    /// The digest of `message`.
    static func digest(_ message: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(32)
        appendDigest(of: message, to: &out)
        return out
    }

    /// Appends the 32-byte digest of `message` to `out`. Nothing is allocated: blocks are
    /// read in place, the padded tail and the schedule live on the stack (model version
    /// hashes take thousands of small digests, one or two per property).
    /// `hardware: false` uses the Swift code even where the instructions exist (tests
    /// compare the two).
    static func appendDigest(of message: [UInt8], to out: inout [UInt8], hardware: Bool = usesHardware) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 8 + 64) { words in
            let h = words.baseAddress!, w = h + 8
            initialState.withUnsafeBufferPointer { h.initialize(from: $0.baseAddress!, count: 8) }
            let whole = message.count / 64
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { tail in
                k.withUnsafeBufferPointer { k in
                    let k = k.baseAddress!
                    func compress(_ blocks: UnsafePointer<UInt8>, _ count: Int) {
                        if hardware { vellum_sha256_compress_hardware(h, blocks, count, k); return }
                        for i in 0..<count { compressInSwift(h, blocks + 64 * i, w, k) }
                    }
                    // The padded tail: the last partial block, 0x80, zeros, the bit length
                    // (one block, or two when the length does not fit after the 0x80).
                    let rest = message.count - whole * 64
                    let tailCount = rest < 56 ? 64 : 128
                    message.withUnsafeBufferPointer { m in
                        guard let base = m.baseAddress else { return }
                        if whole > 0 { compress(base, whole) }
                        for i in 0..<rest { tail[i] = base[whole * 64 + i] }
                    }
                    tail[rest] = 0x80
                    for i in (rest + 1)..<tailCount { tail[i] = 0 }
                    let bitLength = UInt64(message.count) &* 8
                    for i in 0..<8 { tail[tailCount - 1 - i] = UInt8(truncatingIfNeeded: bitLength >> (UInt64(i) * 8)) }
                    compress(UnsafePointer(tail.baseAddress!), tailCount / 64)
                }
            }
            for i in 0..<8 {
                let v = h[i]
                out.append(UInt8(truncatingIfNeeded: v >> 24)); out.append(UInt8(truncatingIfNeeded: v >> 16))
                out.append(UInt8(truncatingIfNeeded: v >> 8)); out.append(UInt8(truncatingIfNeeded: v))
            }
        }
    }

    /// One 64-byte block into the state `h` (eight words), in Swift (the schedule `w` and
    /// the constants `k` by pointer).
    @inline(__always)
    private static func compressInSwift(_ h: UnsafeMutablePointer<UInt32>, _ block: UnsafePointer<UInt8>, _ w: UnsafeMutablePointer<UInt32>, _ k: UnsafePointer<UInt32>) {
        for i in 0..<16 {
            let j = i * 4
            w[i] = UInt32(block[j]) << 24 | UInt32(block[j + 1]) << 16 | UInt32(block[j + 2]) << 8 | UInt32(block[j + 3])
        }
        for i in 16..<64 {
            let s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
            let s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
            w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
        }
        var (a, b, c, d, e, f, g, hh) = (h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7])
        for i in 0..<64 {
            let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
            let ch = (e & f) ^ (~e & g)
            let t1 = hh &+ s1 &+ ch &+ k[i] &+ w[i]
            let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
            let maj = (a & b) ^ (a & c) ^ (b & c)
            (hh, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ s0 &+ maj)
        }
        h[0] &+= a; h[1] &+= b; h[2] &+= c; h[3] &+= d; h[4] &+= e; h[5] &+= f; h[6] &+= g; h[7] &+= hh
    }

    @inline(__always)
    private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
}
