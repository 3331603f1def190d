/// A mouse action reported by the terminal, at 0-based cell coordinates.
public struct MouseEvent: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// The first button pressed (the browser acts on presses, not on clicks).
        case click
        /// The first button let go: ends a drag (a column border moved in the header).
        case release
        case wheelUp
        case wheelDown
    }

    public var kind: Kind
    /// Column, 0-based.
    public var x: Int
    /// Row, 0-based.
    public var y: Int

    public init(_ kind: Kind, x: Int, y: Int) {
        self.kind = kind
        self.x = x
        self.y = y
    }
}
