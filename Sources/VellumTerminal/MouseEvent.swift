/// A mouse action reported by the terminal, at 0-based cell coordinates.
public struct MouseEvent: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case click
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
