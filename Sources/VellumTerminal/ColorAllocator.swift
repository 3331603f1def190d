import CCurses

/// Turns `Style` colours into ncurses colour pairs, caching each pair.
///
/// Why a cache: ncurses needs a numbered pair per fg/bg combination and has
/// a finite number of them; themes use a handful of combinations, so pairs
/// are created lazily and reused. When pairs run out, pair 0 (terminal
/// default) is used rather than recycling pairs still visible on screen.
@MainActor
final class ColorAllocator {
    private struct PairKey: Hashable {
        var foreground: Int32
        var background: Int32
    }

    let capability: ColorCapability
    private let maxPairs: Int32
    private let directColor: Bool
    private let colorCount: Int32
    private let canChangeColor: Bool
    /// Redefining palette slots is allowed (the theme asks for exact colours).
    let exactColors: Bool
    private let canRedefine: Bool
    private let defaultColorsAllowed: Bool
    private var pairs: [PairKey: Int32] = [:]
    private var nextPair: Int32 = 1
    private var customColors: [RGB: Int32] = [:]
    private var nextCustomColor: Int32

    init(capability: ColorCapability, colors: Int32, maxPairs: Int32, canChangeColor: Bool,
         defaultColorsAllowed: Bool, exactColors: Bool) {
        self.capability = capability
        self.maxPairs = maxPairs
        self.colorCount = colors
        self.canChangeColor = canChangeColor
        self.exactColors = exactColors
        // xterm-direct style terminfo: colour numbers are 0xRRGGBB values.
        self.directColor = capability == .trueColor && colors >= 0x100_0000
        self.canRedefine = exactColors && !directColor && capability >= .xterm256 && canChangeColor && colors > 16
        self.defaultColorsAllowed = defaultColorsAllowed
        self.nextCustomColor = min(colors, 256) - 1   // slots whose xterm default is known
    }

    /// A fresh allocator for the same terminal (pairs are defined anew).
    func with(exactColors: Bool) -> ColorAllocator {
        ColorAllocator(capability: capability, colors: colorCount, maxPairs: maxPairs, canChangeColor: canChangeColor,
                       defaultColorsAllowed: defaultColorsAllowed, exactColors: exactColors)
    }

    /// The pair number for a style's colours (0 if colour is off/exhausted).
    func pair(for style: Style) -> Int32 {
        guard capability != .none else { return 0 }
        let key = PairKey(foreground: colorNumber(style.foreground, isForeground: true),
                          background: colorNumber(style.background, isForeground: false))
        if key.foreground == -1 && key.background == -1 { return 0 }
        if let existing = pairs[key] { return existing }
        guard nextPair < maxPairs,
              ccurses_init_extended_pair(nextPair, key.foreground, key.background) == ccurses_ok()
        else { return 0 }
        pairs[key] = nextPair
        nextPair += 1
        return nextPair - 1
    }

    private func colorNumber(_ color: Color, isForeground: Bool) -> Int32 {
        if case .default = color, !defaultColorsAllowed {
            return isForeground ? Int32(ANSIColor.white.rawValue) : Int32(ANSIColor.black.rawValue)
        }
        if case .rgb(let rgb) = color {
            if directColor {
                // Values below 8 would select ANSI colours 0–7 in direct mode.
                let value = Int32(rgb.r) << 16 | Int32(rgb.g) << 8 | Int32(rgb.b)
                return max(value, 8)
            }
            if canRedefine, let custom = customColor(rgb) { return custom }
        }
        return ColorMapping.paletteIndex(for: color, capability: capability)
    }

    /// Redefines palette slots from the top down (sparing the 16 ANSI ones)
    /// to show exact RGB values; nil when slots run out. What is put back on
    /// exit is xterm's default for the slot, not `color_content`: ncurses
    /// does not ask the terminal, and for slots above 7 it only guesses (a
    /// bright copy of slot n % 8), so restoring that would change the palette.
    private func customColor(_ rgb: RGB) -> Int32? {
        if let existing = customColors[rgb] { return existing }
        guard nextCustomColor >= 16 else { return nil }
        // Rounded up so that initc's `* 255 / 1000` gives the same byte back.
        func scale(_ v: UInt8) -> Int32 { (Int32(v) * 1000 + 254) / 255 }
        let original = ColorMapping.rgb(forIndex: UInt8(clamping: nextCustomColor))
        guard ccurses_palette_redefine(nextCustomColor, scale(rgb.r), scale(rgb.g), scale(rgb.b),
                                       scale(original.r), scale(original.g), scale(original.b)) == ccurses_ok() else {
            return nil
        }
        customColors[rgb] = nextCustomColor
        nextCustomColor -= 1
        return nextCustomColor + 1
    }
}
