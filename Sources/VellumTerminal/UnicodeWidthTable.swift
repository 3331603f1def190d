/// Compact range tables used by `DisplayWidth`.
///
/// Why our own table: the terminal (not Foundation) decides how many cells a
/// glyph occupies, and terminals follow Unicode's East Asian Width and
/// Emoji_Presentation properties. The stdlib exposes general categories but not
/// East Asian Width, so the double-width ranges are listed here (Unicode 15,
/// merged where unassigned gaps allow it to keep the table small).
enum UnicodeWidthTable {
    /// Sorted, non-overlapping ranges of scalars that occupy two cells:
    /// East Asian Wide (W) and Fullwidth (F), plus Emoji_Presentation=Yes.
    static let wide: [ClosedRange<UInt32>] = [
        0x1100...0x115F,   // Hangul Jamo leading consonants
        0x231A...0x231B,   // ⌚⌛
        0x2329...0x232A,   // angle brackets
        0x23E9...0x23EC, 0x23F0...0x23F0, 0x23F3...0x23F3,
        0x25FD...0x25FE,
        0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F, 0x2693...0x2693,
        0x26A1...0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5,
        0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA, 0x26F2...0x26F3,
        0x26F5...0x26F5, 0x26FA...0x26FA, 0x26FD...0x26FD,
        0x2705...0x2705, 0x270A...0x270B, 0x2728...0x2728, 0x274C...0x274C,
        0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
        0x27B0...0x27B0, 0x27BF...0x27BF,
        0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
        0x2E80...0x303E,   // CJK radicals, Kangxi, CJK symbols & punctuation
        0x3041...0x33FF,   // Hiragana, Katakana, Bopomofo, Hangul compat jamo, CJK compat
        0x3400...0x4DBF,   // CJK Extension A
        0x4E00...0x9FFF,   // CJK Unified Ideographs
        0xA000...0xA4CF,   // Yi
        0xA960...0xA97F,   // Hangul Jamo Extended-A
        0xAC00...0xD7A3,   // Hangul syllables
        0xF900...0xFAFF,   // CJK Compatibility Ideographs
        0xFE10...0xFE19,   // vertical forms
        0xFE30...0xFE6F,   // CJK compatibility forms, small form variants
        0xFF00...0xFF60,   // Fullwidth ASCII variants
        0xFFE0...0xFFE6,   // Fullwidth signs
        0x16FE0...0x16FE4, 0x16FF0...0x16FF1,
        0x17000...0x18CD5, // Tangut, Khitan
        0x18D00...0x18D08,
        0x1AFF0...0x1B2FF, // Kana supplement/extended, Nushu
        0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E, 0x1F191...0x1F19A,
        0x1F1E6...0x1F1FF, // Regional indicators (flags)
        0x1F200...0x1F202, 0x1F210...0x1F23B, 0x1F240...0x1F248, 0x1F250...0x1F251,
        0x1F260...0x1F265,
        0x1F300...0x1F320, 0x1F32D...0x1F335, 0x1F337...0x1F37C, 0x1F37E...0x1F393,
        0x1F3A0...0x1F3CA, 0x1F3CF...0x1F3D3, 0x1F3E0...0x1F3F0, 0x1F3F4...0x1F3F4,
        0x1F3F8...0x1F43E, 0x1F440...0x1F440, 0x1F442...0x1F4FC, 0x1F4FF...0x1F53D,
        0x1F54B...0x1F54E, 0x1F550...0x1F567, 0x1F57A...0x1F57A, 0x1F595...0x1F596,
        0x1F5A4...0x1F5A4, 0x1F5FB...0x1F64F, 0x1F680...0x1F6C5, 0x1F6CC...0x1F6CC,
        0x1F6D0...0x1F6D2, 0x1F6D5...0x1F6D7, 0x1F6DC...0x1F6DF, 0x1F6EB...0x1F6EC,
        0x1F6F4...0x1F6FC, 0x1F7E0...0x1F7EB, 0x1F7F0...0x1F7F0,
        0x1F90C...0x1F93A, 0x1F93C...0x1F945, 0x1F947...0x1F9FF,
        0x1FA70...0x1FAFF, // Symbols and Pictographs Extended-A
        0x20000...0x2FFFD, // CJK Extensions B–F, compatibility supplement
        0x30000...0x3FFFD, // CJK Extensions G–H
    ]

    /// Scalars that never occupy a cell on their own even though their general
    /// category is not a mark (Hangul medial/final jamo join the leading one).
    static let zeroWidthExtra: [ClosedRange<UInt32>] = [
        0x1160...0x11FF,   // Hangul Jamo vowels and trailing consonants
        0x200B...0x200F,   // zero width space/non-joiner/joiner, LRM/RLM
        0xD7B0...0xD7FF,   // Hangul Jamo Extended-B
        0xFE00...0xFE0F,   // variation selectors
        0xE0100...0xE01EF, // variation selectors supplement
    ]

    /// Binary search over a sorted range table.
    static func contains(_ table: [ClosedRange<UInt32>], _ value: UInt32) -> Bool {
        var low = 0
        var high = table.count - 1
        while low <= high {
            let mid = (low + high) / 2
            let range = table[mid]
            if value < range.lowerBound {
                high = mid - 1
            } else if value > range.upperBound {
                low = mid + 1
            } else {
                return true
            }
        }
        return false
    }
}
