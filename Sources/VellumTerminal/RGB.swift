/// A 24-bit colour.
public struct RGB: Sendable, Hashable, CustomStringConvertible {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8

    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8) {
        self.r = r
        self.g = g
        self.b = b
    }

    /// Parses `#rrggbb` or `#rgb` (the `#` is required). Returns nil otherwise.
    public init?(hex: String) {
        guard hex.hasPrefix("#") else { return nil }
        var digits = Array(hex.dropFirst().unicodeScalars)
        if digits.count == 3 { digits = digits.flatMap { [$0, $0] } }
        guard digits.count == 6,
              let value = UInt32(String(String.UnicodeScalarView(digits)), radix: 16)
        else { return nil }
        self.init(UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
    }

    public var hex: String {
        let digits = Array("0123456789abcdef")
        var s = "#"
        for v in [r, g, b] {
            s.append(digits[Int(v >> 4)])
            s.append(digits[Int(v & 0xF)])
        }
        return s
    }

    public var description: String { hex }

    /// Squared distance weighted for perceived brightness ("redmean"), a
    /// cheap approximation good enough to pick palette entries.
    func distance(to other: RGB) -> Int {
        let rMean = (Int(r) + Int(other.r)) / 2
        let dr = Int(r) - Int(other.r)
        let dg = Int(g) - Int(other.g)
        let db = Int(b) - Int(other.b)
        // Note: in Swift `>>` binds tighter than `*`, hence the parentheses.
        return (((512 + rMean) * dr * dr) >> 8) + 4 * dg * dg + (((767 - rMean) * db * db) >> 8)
    }
}
