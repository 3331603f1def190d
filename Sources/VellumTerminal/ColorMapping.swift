/// Nearest-colour conversion from RGB to the xterm-256 and 16/8-colour
/// palettes, for terminals without truecolor.
public enum ColorMapping {
    /// Channel levels of the xterm 6x6x6 cube (indices 16–231).
    static let cubeLevels: [Int] = [0, 95, 135, 175, 215, 255]

    /// The RGB value xterm uses for a 256-palette index.
    public static func rgb(forIndex index: UInt8) -> RGB {
        let i = Int(index)
        switch i {
        case 0..<16:
            return ANSIColor(rawValue: i)!.rgb
        case 16..<232:
            let c = i - 16
            return RGB(UInt8(cubeLevels[c / 36]), UInt8(cubeLevels[c / 6 % 6]), UInt8(cubeLevels[c % 6]))
        default:
            let level = UInt8(8 + (i - 232) * 10)
            return RGB(level, level, level)
        }
    }

    /// Nearest index in 16–255 (cube or grayscale ramp). The first 16 are
    /// skipped on purpose: users often redefine them, so they are not stable.
    public static func nearest256(_ color: RGB) -> UInt8 {
        func cubeStep(_ v: UInt8) -> Int {
            // Midpoints between cube levels: 0/95 → 48, then every 40 from 115.
            let v = Int(v)
            if v < 48 { return 0 }
            if v < 115 { return 1 }
            return min(5, (v - 35) / 40)
        }
        let ri = cubeStep(color.r), gi = cubeStep(color.g), bi = cubeStep(color.b)
        let cubeIndex = 16 + 36 * ri + 6 * gi + bi
        let cubeColor = RGB(UInt8(cubeLevels[ri]), UInt8(cubeLevels[gi]), UInt8(cubeLevels[bi]))

        let average = (Int(color.r) + Int(color.g) + Int(color.b)) / 3
        let grayStep = average > 238 ? 23 : max(0, (average - 3) / 10)
        let grayIndex = 232 + min(23, grayStep)
        let grayLevel = UInt8(8 + (grayIndex - 232) * 10)
        let grayColor = RGB(grayLevel, grayLevel, grayLevel)

        return color.distance(to: grayColor) < color.distance(to: cubeColor)
            ? UInt8(grayIndex) : UInt8(cubeIndex)
    }

    /// Nearest of the 16 ANSI colours.
    public static func nearest16(_ color: RGB) -> ANSIColor {
        nearest(color, among: ANSIColor.allCases)
    }

    /// Nearest of the 8 basic ANSI colours.
    public static func nearest8(_ color: RGB) -> ANSIColor {
        nearest(color, among: Array(ANSIColor.allCases.prefix(8)))
    }

    private static func nearest(_ color: RGB, among candidates: [ANSIColor]) -> ANSIColor {
        var best = candidates[0]
        var bestDistance = Int.max
        for candidate in candidates {
            let d = color.distance(to: candidate.rgb)
            if d < bestDistance {
                best = candidate
                bestDistance = d
            }
        }
        return best
    }

    /// The ncurses colour number to use for `color` on a terminal with the
    /// given capability: -1 for the terminal default, a palette index
    /// otherwise. RGB values on truecolor terminals are handled by `Screen`
    /// (direct colour or init_extended_color); this is the palette fallback.
    public static func paletteIndex(for color: Color, capability: ColorCapability) -> Int32 {
        switch (color, capability) {
        case (.default, _), (_, .none):
            return -1
        case (.ansi(let c), .ansi8):
            return Int32(c.rawValue % 8)
        case (.ansi(let c), _):
            return Int32(c.rawValue)
        case (.indexed(let i), .xterm256), (.indexed(let i), .trueColor):
            return Int32(i)
        case (.indexed(let i), .ansi16):
            return i < 16 ? Int32(i) : Int32(nearest16(rgb(forIndex: i)).rawValue)
        case (.indexed(let i), .ansi8):
            return i < 8 ? Int32(i) : Int32(nearest8(rgb(forIndex: i)).rawValue)
        case (.rgb(let v), .xterm256), (.rgb(let v), .trueColor):
            return Int32(nearest256(v))
        case (.rgb(let v), .ansi16):
            return Int32(nearest16(v).rawValue)
        case (.rgb(let v), .ansi8):
            return Int32(nearest8(v).rawValue)
        }
    }
}
