/// Sorting 64-bit keys by their bytes (least significant first), and order-preserving
/// keys for integers and doubles.
///
/// O(n) time (one counting pass, then one scatter pass per byte that is not the same
/// in every key: three for values below 2²⁴) and n extra words. A column summary sorts
/// a million numbers this way in about a third of `Array.sort`'s time.
enum RadixSort {
    /// Sorts `keys` ascending (unsigned).
    static func sort(_ keys: inout [UInt64]) {
        let n = keys.count
        guard n > 1 else { return }
        // counts[byte * 256 + digit]: how many keys have `digit` in `byte`.
        var counts = [Int](repeating: 0, count: 8 * 256)
        counts.withUnsafeMutableBufferPointer { c in
            for k in keys {
                for byte in 0..<8 { c[byte &* 256 &+ Int(truncatingIfNeeded: k >> UInt64(byte &* 8) & 0xff)] &+= 1 }
            }
        }
        var spare = [UInt64](repeating: 0, count: n)
        var sortedIsSpare = false
        keys.withUnsafeMutableBufferPointer { a in
            spare.withUnsafeMutableBufferPointer { b in
                var offsets = [Int](repeating: 0, count: 256)
                for byte in 0..<8 {
                    let shift = UInt64(byte * 8), base = byte * 256
                    // A byte every key shares orders nothing.
                    if counts[base + Int(truncatingIfNeeded: a[0] >> shift & 0xff)] == n { continue }
                    var total = 0
                    for digit in 0..<256 { offsets[digit] = total; total += counts[base + digit] }
                    let (source, target) = sortedIsSpare ? (b, a) : (a, b)
                    offsets.withUnsafeMutableBufferPointer { o in
                        for k in source {
                            let digit = Int(truncatingIfNeeded: k >> shift & 0xff)
                            target[o[digit]] = k
                            o[digit] &+= 1
                        }
                    }
                    sortedIsSpare.toggle()
                }
                if sortedIsSpare { _ = a.update(fromContentsOf: b) }
            }
        }
    }

    /// A key that orders as the integer does.
    @inline(__always) static func key(_ i: Int64) -> UInt64 { UInt64(bitPattern: i) ^ (1 << 63) }
    @inline(__always) static func integer(_ key: UInt64) -> Int64 { Int64(bitPattern: key ^ (1 << 63)) }

    /// A key that orders as the double does (NaNs after +∞; −0 and +0 are one value).
    @inline(__always) static func key(_ d: Double) -> UInt64 {
        let bits = (d == 0 ? 0 : d).bitPattern
        return bits & (1 << 63) == 0 ? bits | (1 << 63) : ~bits
    }
    @inline(__always) static func double(_ key: UInt64) -> Double {
        Double(bitPattern: key & (1 << 63) != 0 ? key & ~(1 << 63) : ~key)
    }
}
