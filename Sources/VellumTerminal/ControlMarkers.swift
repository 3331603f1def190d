/// Visible stand-ins for control characters in text (a tab in a value, a
/// stray escape byte): a terminal would act on them — move the cursor, change
/// colours — instead of showing them. Each marker is one cell wide.
public enum ControlMarkers {
    public static let tab: Unicode.Scalar = "⇥"
    public static let newline: Unicode.Scalar = "⏎"
    /// For C1 controls and scalars the C library cannot measure.
    public static let invalid: Unicode.Scalar = "\u{FFFD}"
    /// Unicode's Control Pictures for the other C0 controls and DEL (␀ … ␟, ␡).
    static let pictures: [Unicode.Scalar] = (0x2400...0x241F).compactMap(Unicode.Scalar.init) + ["\u{2421}"]

    /// The marker for `scalar`, or nil when it is not a control character.
    public static func marker(for scalar: Unicode.Scalar) -> Unicode.Scalar? {
        switch scalar.value {
        case 0x09: tab
        case 0x0A: newline
        case 0x00..<0x20: Unicode.Scalar(0x2400 + scalar.value)
        case 0x7F: "\u{2421}"
        case 0x80..<0xA0: invalid
        default: nil
        }
    }
}
