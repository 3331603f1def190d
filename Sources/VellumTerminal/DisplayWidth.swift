/// Terminal cell widths of text, computed per grapheme cluster.
///
/// Why per `Character`: truncation and clipping must never split a grapheme
/// cluster, so text is measured and cut cluster by cluster. How many columns
/// a cluster takes is what `TerminalCells` draws it as.
public enum DisplayWidth {
    /// Number of cells a scalar occupies inside a cluster (0, 1 or 2): the C
    /// library's `wcwidth`; control characters and scalars it cannot measure
    /// count as their one-cell markers.
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let w = TerminalCells.width(of: ControlMarkers.marker(for: scalar) ?? scalar)
        return w < 0 ? 1 : w
    }

    /// Number of cells a grapheme cluster occupies as drawn.
    public static func of(_ character: Character) -> Int {
        TerminalCells.width(of: character)
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
