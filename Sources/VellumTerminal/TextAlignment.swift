/// Horizontal alignment used when padding text into a fixed number of cells.
public enum TextAlignment: Sendable, Hashable {
    case left
    case right
    case center
}
