/// Terminal cell widths of text, computed per grapheme cluster.
///
/// Why per `Character`: a terminal draws a grapheme cluster (base + combining
/// marks, an emoji ZWJ sequence, a flag pair) as one glyph, so widths of the
/// individual scalars must not simply be summed.
public enum DisplayWidth {
    /// Number of cells a scalar occupies on its own (0, 1 or 2).
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v >= 0x20 && v < 0x7F { return 1 }                 // ASCII fast path
        if v < 0x20 || (v >= 0x7F && v < 0xA0) { return 0 }   // C0/C1 controls
        if UnicodeWidthTable.contains(UnicodeWidthTable.zeroWidthExtra, v) { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control:
            return 0
        default:
            break
        }
        return UnicodeWidthTable.contains(UnicodeWidthTable.wide, v) ? 2 : 1
    }

    /// Number of cells a grapheme cluster occupies.
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.count == 1 { return of(first) }
        // Width is decided by the first visible scalar (the base); marks,
        // joiners and selectors add nothing, except that VS16 and ZWJ emoji
        // sequences are always drawn as one wide emoji glyph.
        var base: Int?
        var emojiPresentation = false
        var hasZWJ = false
        for scalar in scalars {
            switch scalar.value {
            case 0xFE0F: emojiPresentation = true
            case 0x200D: hasZWJ = true
            default:
                if base == nil {
                    let w = of(scalar)
                    if w > 0 { base = w }
                }
            }
        }
        guard let baseWidth = base else { return 0 }
        let emojiBase = first.value > 0x7F && first.properties.isEmoji
        if emojiPresentation && first.properties.isEmoji { return 2 }
        if hasZWJ && emojiBase { return 2 }
        return baseWidth
    }

    /// Number of cells a string occupies.
    public static func of(_ string: some StringProtocol) -> Int {
        var total = 0
        for character in string {
            total += of(character)
        }
        return total
    }

    /// Shortens `string` to at most `width` cells, appending `ellipsis` when
    /// anything was cut. Never splits a grapheme; when a wide character would
    /// straddle the limit a space fills the gap, so a truncated result always
    /// occupies exactly `width` cells.
    public static func truncate(_ string: String, toWidth width: Int, ellipsis: String = "…") -> String {
        guard width > 0 else { return "" }
        if of(string) <= width { return string }
        let ellipsisWidth = of(ellipsis)
        // If even the ellipsis does not fit, hard-clip without it.
        let marker = ellipsisWidth <= width ? ellipsis : ""
        let budget = width - of(marker)
        let kept = clip(string, toWidth: budget)
        return kept + String(repeating: " ", count: budget - of(kept)) + marker
    }

    /// Pads `string` with spaces to `width` cells. Never truncates: strings
    /// already that wide or wider are returned unchanged.
    public static func pad(_ string: String, toWidth width: Int, alignment: TextAlignment = .left) -> String {
        let missing = width - of(string)
        guard missing > 0 else { return string }
        switch alignment {
        case .left:
            return string + String(repeating: " ", count: missing)
        case .right:
            return String(repeating: " ", count: missing) + string
        case .center:
            let left = missing / 2
            return String(repeating: " ", count: left) + string + String(repeating: " ", count: missing - left)
        }
    }

    /// Truncates (with ellipsis) and pads, so the result is exactly `width` cells.
    public static func fit(_ string: String, toWidth width: Int, alignment: TextAlignment = .left, ellipsis: String = "…") -> String {
        pad(truncate(string, toWidth: width, ellipsis: ellipsis), toWidth: width, alignment: alignment)
    }

    /// Hard-clips to at most `width` cells, no ellipsis, never splitting a
    /// grapheme (used when drawing so text never spills past an edge).
    public static func clip(_ string: String, toWidth width: Int) -> String {
        guard width > 0 else { return "" }
        var result = ""
        var used = 0
        for character in string {
            let w = of(character)
            if used + w > width { break }
            result.append(character)
            used += w
        }
        return result
    }
}

extension StringProtocol {
    /// Terminal cell width; see `DisplayWidth`.
    public var displayWidth: Int { DisplayWidth.of(self) }
}
